import { describe, expect, it } from 'vitest';
import { type MinutePoint, TRIGGER_AFTER_NS, TRIGGER_BEFORE_NS, onsetMinute, triggeringEvent } from '../../../src/colony/unified/onset.js';
import { memoryResets, saturation } from '../../../src/colony/unified/saturation.js';

/**
 * The thresholds of the saturation patterns and of the onset search, each on its edge: a wrong
 * comparison or a swapped branch gives a different signal, score or minute on these inputs.
 */
const pts = (values: number[]) => values.map((value, i) => ({ timeNs: BigInt(i), value }));
const none = { memory: [], prevMemory: [], cpu: [], prevCpu: [], lag: [], prevLag: [], restarts: 0, trafficRatio: 1 };

describe('memoryResets', () => {
  it('counts a drop below 70% of the point before; exactly 70% is not one', () => {
    expect(memoryResets(pts([100, 70, 100, 69.9]))).toBe(1);
    expect(memoryResets(pts([50, 100]))).toBe(0);
    expect(memoryResets(pts([10]))).toBe(0);
  });

  it('compares each point with the one just before it, from the second point on', () => {
    // 100 -> 60 is a reset; 60 -> 50 is not (50 is above 70% of 60), though it is below 70% of 100.
    expect(memoryResets(pts([100, 60, 50]))).toBe(1);
  });
});

describe('saturation: memory', () => {
  it('a rise to exactly 1.5 times the previous average counts; just under does not', () => {
    expect(saturation({ ...none, memory: pts([100e6, 150e6]), prevMemory: pts([90e6, 110e6]) })).toEqual({ signals: ['memory 100 MB -> 150 MB'], score: 8 });
    expect(saturation({ ...none, memory: pts([100e6, 149e6]), prevMemory: pts([100e6]) })).toEqual({ signals: [], score: 0 });
  });

  it('without a previous window the first point is the baseline', () => {
    expect(saturation({ ...none, memory: pts([40e6, 100e6]) })).toEqual({ signals: ['memory 40 MB -> 100 MB'], score: 8 });
  });

  it('restart events alone make a climb a leak with restarts, counted in the singular', () => {
    expect(saturation({ ...none, memory: pts([100e6, 200e6]), prevMemory: pts([100e6]), restarts: 1 })).toEqual({ signals: ['memory climbs 100 MB -> 200 MB and resets (1 restart)'], score: 25 });
  });

  it('the restart count is the larger of the resets seen and the restart events', () => {
    const memory = pts([100e6, 200e6, 50e6, 200e6]);
    expect(saturation({ ...none, memory, prevMemory: pts([100e6]), restarts: 3 }).signals).toEqual(['memory climbs 100 MB -> 200 MB and resets (3 restarts)']);
    expect(saturation({ ...none, memory, prevMemory: pts([100e6]), restarts: 0 }).signals).toEqual(['memory climbs 100 MB -> 200 MB and resets (1 restart)']);
  });

  it('a zero baseline says nothing about memory; two restarts still count on their own, one does not', () => {
    expect(saturation({ ...none, memory: pts([0, 100e6]), prevMemory: pts([0]), restarts: 2 })).toEqual({ signals: ['2 restarts'], score: 10 });
    expect(saturation({ ...none, memory: pts([0, 100e6]), prevMemory: pts([0]), restarts: 1 })).toEqual({ signals: [], score: 0 });
    expect(saturation({ ...none, restarts: 2 })).toEqual({ signals: ['2 restarts'], score: 10 });
  });

  it('the peak is the highest point, not the last', () => {
    expect(saturation({ ...none, memory: pts([100e6, 300e6, 250e6]), prevMemory: pts([100e6]) }).signals).toEqual(['memory 100 MB -> 300 MB']);
  });
});

describe('saturation: CPU', () => {
  it('exactly double, and at least 20%, counts; scored when the load does not explain it', () => {
    expect(saturation({ ...none, cpu: pts([0.2]), prevCpu: pts([0.1]) })).toEqual({ signals: ['CPU 10.0% -> 20.0%'], score: 5 });
    expect(saturation({ ...none, cpu: pts([0.19, 0.19]), prevCpu: pts([0.09]) })).toEqual({ signals: [], score: 0 });
    expect(saturation({ ...none, cpu: pts([0.3, 0.29]), prevCpu: pts([0.15]) })).toEqual({ signals: [], score: 0 });
  });

  it('traffic up by exactly 80% of the CPU ratio explains it; a little less does not', () => {
    expect(saturation({ ...none, cpu: pts([0.4]), prevCpu: pts([0.1]), trafficRatio: 3.2 })).toEqual({ signals: ['CPU 10.0% -> 40.0%, with load'], score: 0 });
    expect(saturation({ ...none, cpu: pts([0.4]), prevCpu: pts([0.1]), trafficRatio: 3.1 })).toEqual({ signals: ['CPU 10.0% -> 40.0%'], score: 5 });
  });

  it('averages each window', () => {
    expect(saturation({ ...none, cpu: pts([0.1, 0.5]), prevCpu: pts([0.05, 0.15]) }).signals).toEqual(['CPU 10.0% -> 30.0%']);
  });

  it('needs both windows and a previous CPU above zero', () => {
    expect(saturation({ ...none, cpu: pts([0.9]) }).signals).toEqual([]);
    expect(saturation({ ...none, prevCpu: pts([0.1]) }).signals).toEqual([]);
    expect(saturation({ ...none, cpu: pts([0.9]), prevCpu: pts([0]) }).signals).toEqual([]);
  });
});

describe('saturation: consumer lag', () => {
  it('a lag of 100 from none counts; 99 does not', () => {
    expect(saturation({ ...none, lag: pts([0, 100]) })).toEqual({ signals: ['consumer lag 0 -> 100 messages'], score: 25 });
    expect(saturation({ ...none, lag: pts([0, 99]) }).signals).toEqual([]);
  });

  it('must grow more than five times the previous window\'s last value', () => {
    expect(saturation({ ...none, lag: pts([500]), prevLag: pts([10, 100]) }).signals).toEqual([]);
    expect(saturation({ ...none, lag: pts([501]), prevLag: pts([1000, 100]) })).toEqual({ signals: ['consumer lag 100 -> 501 messages'], score: 25 });
  });

  it('reads the latest point of this window', () => {
    expect(saturation({ ...none, lag: pts([5000, 10]) }).signals).toEqual([]);
  });
});

it('saturation adds the scores of every pattern it finds', () => {
  const f = saturation({ memory: pts([100e6, 200e6, 50e6]), prevMemory: pts([100e6]), cpu: pts([0.5]), prevCpu: pts([0.1]), lag: pts([1000]), prevLag: [], restarts: 0, trafficRatio: 1 });
  expect(f.score).toBe(25 + 5 + 25);
  expect(f.signals).toHaveLength(3);
});

describe('onsetMinute', () => {
  const series = (values: number[], at: (i: number) => Partial<MinutePoint> = () => ({})): MinutePoint[] =>
    values.map((v, minute) => ({ minute, requests: 100, errors: v, durationMs: 1000, ...at(minute) }));

  it('needs two minutes on each side of the split', () => {
    // A step at the last minute, or at the second: no split leaves two on each side there.
    expect(onsetMinute(series([0, 0, 0, 0, 50]), 'errors', 0)).toBeNull();
    expect(onsetMinute(series([0, 50, 50, 50, 50]), 'errors', 0)).toBeNull();
    expect(onsetMinute(series([0, 0, 50, 50]), 'errors', 0)).toBe(2);
  });

  it('a clean step (no spread) is an onset; a clean drop is not', () => {
    expect(onsetMinute(series([1, 1, 1, 9, 9, 9]), 'errors', 0)).toBe(3);
    expect(onsetMinute(series([9, 9, 9, 1, 1, 1]), 'errors', 0)).toBeNull();
    expect(onsetMinute(series([5, 5, 5, 5, 5, 5]), 'errors', 0)).toBeNull();
  });

  it('reads the error rate per request for errors, the mean duration per request for latency', () => {
    // Requests double at minute 3 with the errors: the rate stays the same; the duration per request halves.
    const points = series([10, 10, 10, 20, 20, 20], (m) => (m >= 3 ? { requests: 200, durationMs: 1000 } : {}));
    expect(onsetMinute(points, 'errors', 0)).toBeNull();
    const slower = series([0, 0, 0, 0, 0, 0], (m) => ({ durationMs: m >= 3 ? 5000 : 1000 }));
    expect(onsetMinute(slower, 'latency', 0)).toBe(3);
    expect(onsetMinute(slower, 'errors', 0)).toBeNull();
  });

  it('skips minutes without requests and sorts by minute', () => {
    const points = series([1, 1, 1, 9, 9, 9]);
    const shuffled = [points[4], points[0], { minute: 2.5, requests: 0, errors: 0, durationMs: 0 }, points[5], points[2], points[1], points[3]];
    expect(onsetMinute(shuffled, 'errors', 0)).toBe(3);
  });

  it('searches from `earliest` on, that minute included', () => {
    const points = series([0, 0, 30, 30, 30, 30, 30]);
    expect(onsetMinute(points, 'errors', 2)).toBe(2);
    expect(onsetMinute(points, 'errors', 3)).toBeNull();
  });

  it('takes the clearest split, not the first one over the threshold', () => {
    const noisy = series([0, 1, 0, 1, 0, 1, 10, 11, 10, 11, 10, 11, 30, 31, 30, 31, 30, 31]);
    expect(onsetMinute(noisy, 'errors', 0)).toBe(12);
  });

  it('latency is the duration per request: the same total time over fewer requests is slower', () => {
    const fewer = series([0, 0, 0, 0, 0, 0], (m) => ({ requests: m >= 3 ? 10 : 100, durationMs: 1000 }));
    expect(onsetMinute(fewer, 'latency', 0)).toBe(3);
  });

  it('a steady rate over many minutes has no onset, however high it is', () => {
    expect(onsetMinute(series(new Array(14).fill(5)), 'errors', 0)).toBeNull();
  });

  it('a t statistic of exactly 3 is an onset; just under 3 is none', () => {
    // 0,0 | 2,4: means 0 and 3, pooled sd 1, t = 3. 0,1 | 2,3 gives t = 2 / sqrt(1/2) = 2.83.
    expect(onsetMinute(series([0, 0, 2, 4]), 'errors', 0)).toBe(2);
    expect(onsetMinute(series([0, 1, 2, 3]), 'errors', 0)).toBeNull();
  });

  it('of two splits as clear as each other, the earlier', () => {
    // 0,0 | 1,1,2,2 and 0,0,1,1 | 2,2 mirror each other: the same t (3.46); 0,0,1 | 1,2,2 is less (2.83).
    expect(onsetMinute(series([0, 0, 1, 1, 2, 2]), 'errors', 0)).toBe(2);
  });
});

describe('triggeringEvent', () => {
  const MIN = 60_000_000_000n;
  const onset = 100n * MIN;
  const ev = (dt: bigint, kind: 'deploy' | 'config_change' | 'restart' | 'crash' | 'alert' = 'deploy', serviceName = 'svc') => ({ timeNs: onset + dt, serviceName, kind, title: `${kind} ${dt / MIN}` });

  it('takes deploys and configuration changes, never restarts, crashes or alerts', () => {
    expect(triggeringEvent([ev(-MIN, 'config_change')], 'svc', onset)?.kind).toBe('config_change');
    expect(triggeringEvent([ev(-MIN, 'restart'), ev(-MIN, 'crash'), ev(-MIN, 'alert')], 'svc', onset)).toBeNull();
  });

  it('looks from exactly 10 minutes before to exactly 2 minutes after', () => {
    expect(triggeringEvent([ev(-TRIGGER_BEFORE_NS)], 'svc', onset)).not.toBeNull();
    expect(triggeringEvent([ev(-TRIGGER_BEFORE_NS - 1n)], 'svc', onset)).toBeNull();
    expect(triggeringEvent([ev(TRIGGER_AFTER_NS)], 'svc', onset)).not.toBeNull();
    expect(triggeringEvent([ev(TRIGGER_AFTER_NS + 1n)], 'svc', onset)).toBeNull();
  });

  it('takes the one closest to the onset on either side; of two as close, the first', () => {
    expect(triggeringEvent([ev(-5n * MIN), ev(MIN), ev(-3n * MIN)], 'svc', onset)?.title).toBe('deploy 1');
    expect(triggeringEvent([ev(-MIN), ev(2n * MIN)], 'svc', onset)?.title).toBe('deploy -1');
    expect(triggeringEvent([ev(MIN), ev(-MIN, 'config_change')], 'svc', onset)?.title).toBe('deploy 1');
  });

  it('only the service asked about', () => {
    expect(triggeringEvent([ev(-MIN, 'deploy', 'other'), ev(-8n * MIN)], 'svc', onset)?.title).toBe('deploy -8');
  });
});
