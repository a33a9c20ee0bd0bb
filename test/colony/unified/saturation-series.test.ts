import { describe, expect, it } from 'vitest';
import { type Point, memoryResets, saturation } from '../../../src/colony/unified/saturation.js';

/**
 * Each gauge series (one process, instance or partition) is read on its own: a restart is a drop
 * within one series, a series that appears is not a restart, and processes are never compared
 * with each other.
 */
const none = { memory: [], prevMemory: [], cpu: [], prevCpu: [], lag: [], prevLag: [], restarts: 0, trafficRatio: 1 };
/** Points of one series, one a minute from `t0` minutes. */
const series = (name: string, values: number[], t0 = 0): Point[] => values.map((value, i) => ({ series: name, timeNs: BigInt((t0 + i) * 60), value }));
/** Interleaved by time, as a store returns points ordered by time alone. */
const byTime = (...lists: Point[][]) => lists.flat().sort((a, b) => Number(a.timeNs - b.timeNs));

describe('saturation per series', () => {
  it('two steady processes of very different size are no climb and no reset', () => {
    const memory = byTime(series('pid-1', [13e6, 13e6, 13e6]), series('pid-2', [2019e6, 2019e6, 2019e6]));
    expect(memoryResets(memory)).toBe(0);
    expect(saturation({ ...none, memory, prevMemory: byTime(series('pid-1', [13e6], -5), series('pid-2', [2019e6], -5)) })).toEqual({ signals: [], score: 0 });
  });

  it('a process per point (short-lived processes, one scrape each) is no leak', () => {
    const memory = byTime(...[13e6, 900e6, 40e6, 2019e6, 8e6, 1200e6].map((v, i) => series(`pid-${i}`, [v], i)));
    expect(memoryResets(memory)).toBe(0);
    expect(saturation({ ...none, memory }).signals).toEqual([]);
  });

  it('a new series appearing is not a restart; a drop within one series is', () => {
    const climbing = series('pod-a', [100e6, 200e6, 300e6]);
    const fresh = series('pod-b', [100e6, 110e6], 3);
    expect(saturation({ ...none, memory: byTime(climbing, fresh), prevMemory: series('pod-a', [100e6], -5) })).toEqual({ signals: ['memory 100 MB -> 300 MB'], score: 8 });
    const restarting = series('pod-a', [100e6, 200e6, 300e6, 90e6, 200e6]);
    expect(saturation({ ...none, memory: byTime(restarting, fresh), prevMemory: series('pod-a', [100e6], -5) })).toEqual({
      signals: ['memory climbs 100 MB -> 300 MB and resets (1 restart)'], score: 25,
    });
  });

  it('compares each series with its own previous window, and reports the one that climbed most', () => {
    const memory = byTime(series('small', [10e6, 30e6]), series('big', [1000e6, 1100e6]));
    const prevMemory = byTime(series('small', [10e6], -5), series('big', [1000e6], -5));
    expect(saturation({ ...none, memory, prevMemory }).signals).toEqual(['memory 10 MB -> 30 MB']);
    // The same points in another order (another store's series order) read the same.
    expect(saturation({ ...none, memory: [...memory].reverse(), prevMemory: [...prevMemory].reverse() }).signals).toEqual(['memory 10 MB -> 30 MB']);
  });

  it('sums consumer lag over partitions at their latest readings', () => {
    const lag = byTime(series('p0', [10, 60]), series('p1', [10, 60]));
    expect(saturation({ ...none, lag, prevLag: byTime(series('p0', [10], -5), series('p1', [10], -5)) }).signals).toEqual(['consumer lag 20 -> 120 messages']);
  });
});
