import { describe, expect, it } from 'vitest';
import { TickBatcher } from '../../../src/colony/store/clickhouse/tick-batch.js';
import type { TimeRange } from '../../../src/core/time.js';

const now = { fromNs: 30n, toNs: 60n };
const before = { fromNs: 0n, toNs: 30n };
/** An answer that names its window, so a caller given another window's answer shows. */
const answer = (r: TimeRange, key: string) => ({ window: `${r.fromNs}..${r.toNs}`, key });

describe('TickBatcher over windows', () => {
  it('answers the windows asked in one tick with one run, each caller its own window, as separate calls would', async () => {
    const runs: string[][] = [];
    const b = new TickBatcher(async (ranges: readonly TimeRange[], key) => {
      runs.push(ranges.map((r) => `${r.fromNs}..${r.toNs}`));
      return ranges.map((r) => answer(r, key));
    });
    const together = await Promise.all([b.ask(now), b.ask(before), b.ask(now)]);
    expect(runs).toEqual([['30..60', '0..30', '30..60']]);
    const apart = [await b.ask(now), await b.ask(before), await b.ask(now)];
    expect(runs).toHaveLength(4);
    expect(together).toEqual(apart);
    expect(together.map((a) => a.window)).toEqual(['30..60', '0..30', '30..60']);
    // A window asked twice gets two answers, not one object shared by both callers.
    expect(together[0]).not.toBe(together[2]);
  });

  it('keeps other arguments apart, and fails only the callers of a failed run', async () => {
    const b = new TickBatcher(async (ranges: readonly TimeRange[], key) => {
      if (key === 'boom') throw new Error('boom');
      return ranges.map((r) => answer(r, key));
    });
    const asked = [b.ask(now, '800'), b.ask(before, 'boom'), b.ask(before, '800'), b.ask(now, 'boom')];
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      { window: '30..60', key: '800' }, 'boom', { window: '0..30', key: '800' }, 'boom',
    ]);
    // The failed batch is gone: the next tick runs again.
    expect(await b.ask(now, '800')).toEqual({ window: '30..60', key: '800' });
  });
});
