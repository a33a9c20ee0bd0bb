import { describe, expect, it } from 'vitest';
import { askWindowOf, windowArgs } from '../../src/commands/window-flags.js';

const now = BigInt(Date.parse('2026-11-27T18:00:00Z')) * 1_000_000n;

describe('windowArgs: the window flags as tool arguments', () => {
  it('--since alone (or nothing) counts back from now', () => {
    expect(windowArgs({}, '1h', now)).toEqual({ time_range: '1h' });
    expect(windowArgs({ since: '15m' }, '1h', now)).toEqual({ time_range: '15m' });
  });

  it('--from/--to travel as absolute start/end; --to alone keeps --since', () => {
    expect(windowArgs({ from: '13:05', to: '13:35' }, '1h', now)).toEqual({ start: '2026-11-27T13:05:00.000Z', end: '2026-11-27T13:35:00.000Z' });
    expect(windowArgs({ from: 'now-2h' }, '1h', now)).toEqual({ start: '2026-11-27T16:00:00.000Z' });
    expect(windowArgs({ to: '13:35', since: '10m' }, '1h', now)).toEqual({ time_range: '10m', end: '2026-11-27T13:35:00.000Z' });
  });

  it('refuses a backwards window, a --from still to come and a bad --since', () => {
    expect(() => windowArgs({ from: '13:35', to: '13:05' }, '1h', now)).toThrow(/--from must be before --to/);
    expect(() => windowArgs({ from: 'now' }, '1h', now)).toThrow(/--from now is not in the past/);
    expect(() => windowArgs({ since: 'soon' }, '1h', now)).toThrow(/Invalid duration/);
  });
});

describe('askWindowOf: the window of a question, when a flag names one', () => {
  it('is undefined without a flag', () => {
    expect(askWindowOf({}, now)).toBeUndefined();
  });

  it('resolves every form to start/end and names the flags it came from', () => {
    expect(askWindowOf({ since: '30m' }, now)).toEqual({ start: '2026-11-27T17:30:00.000Z', end: '2026-11-27T18:00:00.000Z', label: '17:30-18:00 UTC (30 min), from --since 30m' });
    expect(askWindowOf({ from: '13:05' }, now)).toEqual({ start: '2026-11-27T13:05:00.000Z', end: '2026-11-27T18:00:00.000Z', label: '13:05-18:00 UTC (4 h 55 min), from --from 13:05' });
    expect(askWindowOf({ to: '13:35' }, now)).toEqual({ start: '2026-11-27T13:05:00.000Z', end: '2026-11-27T13:35:00.000Z', label: '13:05-13:35 UTC (30 min), from --to 13:35' });
    expect(askWindowOf({ to: '13:35', since: '1h' }, now)?.start).toBe('2026-11-27T12:35:00.000Z');
    expect(askWindowOf({ from: '2026-11-26T13:05', to: '2026-11-26T14:05', since: '5m' }, now)?.label).toBe('2026-11-26 13:05-14:05 UTC (1 h), from --from 2026-11-26T13:05 --to 2026-11-26T14:05');
  });
});
