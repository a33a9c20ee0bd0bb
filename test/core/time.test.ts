import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastWindow, parseDuration, parseInstant, formatSpan, formatWindow, parseIso8601 } from '../../src/core/time.js';
import { CoralError } from '../../src/core/errors.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000_000_000n],
    ['30m', 1_800_000_000_000n],
    ['1h', 3_600_000_000_000n],
    ['24h', 86_400_000_000_000n],
    ['7d', 604_800_000_000_000n],
    ['2w', 1_209_600_000_000_000n],
    ['500ms', 500_000_000n],
    ['1.5h', 5_400_000_000_000n],
  ])('%s', (text, ns) => expect(parseDuration(text)).toBe(ns));

  it('rejects what it cannot read, saying what is accepted', () => {
    for (const bad of ['', '10', 'h', '5 parsecs', '-1h']) {
      expect(() => parseDuration(bad)).toThrow(CoralError);
    }
    try {
      parseDuration('10');
    } catch (err) {
      expect((err as CoralError).hint).toMatch(/90s, 30m, 1h/);
    }
  });
});

describe('time windows', () => {
  it('lastWindow ends at the given now', () => {
    expect(lastWindow('1h', 10_000_000_000_000n)).toEqual({ fromNs: 6_400_000_000_000n, toNs: 10_000_000_000_000n });
  });

  it('parseInstant reads ISO and epoch milliseconds without losing precision', () => {
    expect(parseInstant('2025-12-02T10:30:15Z')).toBe(1_764_671_415_000_000_000n);
    expect(parseInstant('1764671415000')).toBe(1_764_671_415_000_000_000n);
    expect(() => parseInstant('yesterday')).toThrow(/Invalid time/);
  });
});

describe('parseInstant: epoch seconds, milliseconds and now-relative times', () => {
  const now = 1_764_671_415_000_000_000n;
  it('tells epoch seconds (10 digits) from milliseconds (13 digits)', () => {
    expect(parseInstant('1764671415')).toBe(1_764_671_415_000_000_000n);
    expect(parseInstant('1764671415123')).toBe(1_764_671_415_123_000_000n);
  });

  it('refuses other digit counts as ambiguous, saying what is accepted', () => {
    for (const bad of ['17646714', '176467141500', '1764671415000000']) {
      expect(() => parseInstant(bad)).toThrow(/Ambiguous time/);
    }
    try {
      parseInstant('176467141500');
    } catch (err) {
      expect((err as CoralError).hint).toMatch(/epoch seconds \(10 digits\) or milliseconds \(13 digits\), or now-1h/);
    }
  });

  it('reads now and now-<duration> against the given now', () => {
    expect(parseInstant('now', now)).toBe(now);
    expect(parseInstant('now-1h', now)).toBe(now - 3_600_000_000_000n);
    expect(parseInstant('NOW - 30m', now)).toBe(now - 1_800_000_000_000n);
    expect(() => parseInstant('now-soon', now)).toThrow(/Invalid duration/);
  });
});

/** A host zone away from UTC, so that reading a time in the host's zone shows (the test machines run in UTC). */
function inKolkata(): void {
  beforeEach(() => {
    vi.stubEnv('TZ', 'Asia/Kolkata');
    expect(new Date(Date.UTC(2026, 0, 1)).getHours()).toBe(5);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
}

describe('parseIso8601: what tools take as start/end', () => {
  inKolkata();
  const at = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
  it('reads dates, times with Z or an offset, and takes no offset as UTC (never the host zone)', () => {
    expect(parseIso8601('2026-11-27T13:05:00Z')).toBe(at('2026-11-27T13:05:00Z'));
    expect(parseIso8601('2026-11-27T13:05:00+02:00')).toBe(at('2026-11-27T11:05:00Z'));
    expect(parseIso8601('2026-11-27T13:05:00-0130')).toBe(at('2026-11-27T14:35:00Z'));
    expect(parseIso8601('2026-11-27T13:05')).toBe(at('2026-11-27T13:05:00Z'));
    expect(parseIso8601('2026-11-27 13:05:30')).toBe(at('2026-11-27T13:05:30Z'));
    expect(parseIso8601('2026-11-27')).toBe(at('2026-11-27T00:00:00Z'));
    expect(parseIso8601('2026-11-27T13:05:00.123456789Z')).toBe(at('2026-11-27T13:05:00Z') + 123_456_789n);
  });
  it('refuses anything else, days that do not exist included', () => {
    for (const bad of ['13:05', 'now-1h', '1764671400000', '2026-02-30', '2026-13-01T00:00Z', '2026-11-27T24:00Z', '2026-11-27T13:60Z', '27/11/2026', '']) {
      expect(parseIso8601(bad), bad).toBeUndefined();
    }
  });
});

describe('formatWindow: the window as headings state it', () => {
  const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
  const now = ns('2026-11-27T18:00:00Z');
  it('omits today\'s date, gives another day\'s, and both across midnight', () => {
    expect(formatWindow({ fromNs: ns('2026-11-27T13:05:00Z'), toNs: ns('2026-11-27T13:35:00Z') }, now)).toBe('13:05-13:35 UTC (30 min)');
    expect(formatWindow({ fromNs: ns('2026-11-26T13:05:00Z'), toNs: ns('2026-11-26T15:35:00Z') }, now)).toBe('2026-11-26 13:05-15:35 UTC (2 h 30 min)');
    expect(formatWindow({ fromNs: ns('2026-11-26T23:50:00Z'), toNs: ns('2026-11-27T00:20:00Z') }, now)).toBe('2026-11-26 23:50 - 2026-11-27 00:20 UTC (30 min)');
  });
  it('shows seconds only when a bound has them', () => {
    expect(formatWindow({ fromNs: ns('2026-11-27T13:05:30Z'), toNs: ns('2026-11-27T13:06:00Z') }, now)).toBe('13:05:30-13:06:00 UTC (30 s)');
  });
  it('names lengths in the two largest units', () => {
    expect(formatSpan(90n * 1_000_000_000n)).toBe('1 min 30 s');
    expect(formatSpan(30n * 3_600_000_000_000n)).toBe('1 d 6 h');
    expect(formatSpan(7n * 86_400_000_000_000n + 59n * 1_000_000_000n)).toBe('7 d');
    expect(formatSpan(500_000_000n - 1n)).toBe('500ms');
  });
});

describe('parseInstant: clock times and ISO without an offset are UTC, like the times the CLI prints', () => {
  inKolkata();
  const now = BigInt(Date.parse('2026-11-27T18:00:00Z')) * 1_000_000n;
  const at = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
  it('reads 13:05 as today, and a clock time still to come as yesterday', () => {
    expect(parseInstant('13:05', now)).toBe(at('2026-11-27T13:05:00Z'));
    expect(parseInstant('9:30:15', now)).toBe(at('2026-11-27T09:30:15Z'));
    expect(parseInstant('19:00', now)).toBe(at('2026-11-26T19:00:00Z'));
    expect(() => parseInstant('25:00', now)).toThrow(/Invalid time "25:00"/);
  });
  it('reads ISO without an offset as UTC, whatever the host zone', () => {
    expect(parseInstant('2025-12-02T10:30', now)).toBe(at('2025-12-02T10:30:00Z'));
    expect(parseInstant('2025-12-02 10:30:00+01:00', now)).toBe(at('2025-12-02T09:30:00Z'));
  });
});
