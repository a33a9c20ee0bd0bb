import { describe, expect, it } from 'vitest';
import { lastWindow, parseDuration, parseInstant } from '../../src/core/time.js';
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
