import { describe, expect, it } from 'vitest';
import { axisNumber, niceCeil, niceStep, timeTicks, valueRange } from '../../../components/chart/ticks.js';

const at = (hhmm: string) => Date.parse(`2026-12-07T${hhmm}Z`);

describe('time ticks', () => {
  it('chooses round clock times (HH:MM, UTC) spaced so the labels never touch', () => {
    const ticks = timeTicks(at('13:02:00'), at('14:01:00'), 40);
    expect(ticks.map((t) => t.label)).toEqual(['13:15', '13:30', '13:45', '14:00']);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i].col - ticks[i - 1].col).toBeGreaterThanOrEqual(5 + 3);
  });

  it('goes finer on a wide axis and coarser on a narrow one', () => {
    expect(timeTicks(at('13:02:00'), at('14:01:00'), 160).map((t) => t.label).slice(0, 3)).toEqual(['13:05', '13:10', '13:15']);
    expect(timeTicks(at('13:02:00'), at('14:01:00'), 16).map((t) => [t.label, t.col, t.labelAt])).toEqual([['14:00', 15, 11]]);
  });

  it('labels seconds below a minute and keeps every label inside the axis', () => {
    const ticks = timeTicks(at('13:00:03'), at('13:02:00'), 60);
    expect(ticks[0].label).toMatch(/^13:0\d:\d\d$/);
    for (const t of ticks) {
      expect(t.labelAt).toBeGreaterThanOrEqual(0);
      expect(t.labelAt + t.label.length).toBeLessThanOrEqual(60);
    }
    for (let i = 1; i < ticks.length; i++) expect(ticks[i].labelAt).toBeGreaterThan(ticks[i - 1].labelAt + ticks[i - 1].label.length);
  });

  it('places a tick at its time: column 0 is the first step, the last column the last', () => {
    const [t] = timeTicks(at('13:00:00'), at('14:00:00'), 61).filter((x) => x.label === '13:30');
    expect(t.col).toBe(30);
  });

  it('gives no ticks for an empty axis', () => {
    expect(timeTicks(at('13:00:00'), at('13:00:00'), 40)).toEqual([]);
  });
});

describe('value range', () => {
  it('rounds to nice numbers', () => {
    expect([niceCeil(34), niceCeil(17.8), niceCeil(0.3), niceCeil(100), niceCeil(126e6)]).toEqual([40, 20, 0.3, 100, 150e6]);
    expect([niceStep(173), niceStep(2.97e6), niceStep(0.0018), niceStep(1)]).toEqual([200, 5e6, 0.002, 1]);
  });

  it('starts counts at zero; others sit around their points on a nice step; gaps do not count', () => {
    expect(valueRange([0, 3, null, 34], true)).toEqual({ lo: 0, hi: 40 });
    expect(valueRange([120, null, 812], false)).toEqual({ lo: 0, hi: 1000 });
    expect(valueRange([114.6e6, 126.5e6], false)).toEqual({ lo: 110e6, hi: 130e6 });
    expect(valueRange([0.0305, 0.0377], false)).toEqual({ lo: 0.03, hi: 0.038 });
    expect(valueRange([null, null], true)).toEqual({ lo: 0, hi: 1 });
    const flat = valueRange([5, 5], false);
    expect(flat.hi).toBeGreaterThan(flat.lo);
    expect(flat.lo).toBeLessThanOrEqual(5);
    expect(valueRange([0, 0], true)).toEqual({ lo: 0, hi: 1 });
  });

  it('writes axis numbers compactly', () => {
    expect([axisNumber(0), axisNumber(2.5), axisNumber(1000), axisNumber(25000), axisNumber(3_400_000)]).toEqual(['0', '2.5', '1000', '25k', '3.4M']);
  });
});
