import { describe, expect, it } from 'vitest';
import { MIN_HOPS, MIN_WAIT_MS, backlogSignal, delayChange } from '../../../src/colony/unified/messaging-lag.js';
import { saturation } from '../../../src/colony/unified/saturation.js';
import { compareServices } from '../../../src/colony/unified/summary.js';
import type { MessagingDelayRow } from '../../../src/colony/store/queries/messaging.js';
import { health, input } from './summary-input.js';

/** A consumer falling behind, read from the wait between send and processing. */
const row = (service: string, hops: number, meanDelayMs: number, maxDelayMs = meanDelayMs, source: 'otlp' | 'ebpf' = 'otlp'): MessagingDelayRow => ({ service, source, hops, meanDelayMs, maxDelayMs });

describe('delayChange', () => {
  it('takes the source that matched the most messages now, and the same source before', () => {
    const d = delayChange('fraud', [row('fraud', 50, 400_000, 500_000), row('fraud', 80, 300_000, 450_000, 'ebpf'), row('other', 999, 1)], [row('fraud', 40, 5), row('fraud', 60, 7, 9, 'ebpf')]);
    expect(d).toEqual({ hops: 80, meanMs: 300_000, prevMeanMs: 7, maxMs: 450_000 });
  });

  it('a previous window with too few matched messages, or none, reads as unknown', () => {
    expect(delayChange('fraud', [row('fraud', 50, 400_000)], [row('fraud', MIN_HOPS - 1, 5)])?.prevMeanMs).toBeNull();
    expect(delayChange('fraud', [row('fraud', 50, 400_000)], [])?.prevMeanMs).toBeNull();
    expect(delayChange('fraud', [], [row('fraud', 50, 5)])).toBeNull();
  });
});

describe('backlogSignal', () => {
  const d = (meanMs: number, prevMeanMs: number | null, hops = 100) => ({ hops, meanMs, prevMeanMs, maxMs: 2 * meanMs });

  it('words the wait in minutes, with what it was and how many messages say so', () => {
    expect(backlogSignal(d(390_000, 4))).toBe('messages wait 6.5 min on average between send and processing (was 4ms), up to 13.0 min, over 100 messages: the consumer falls behind');
    expect(backlogSignal(d(30_000, null))).toBe('messages wait 30.0s on average between send and processing, up to 60.0s, over 100 messages: the consumer falls behind');
  });

  it('needs a second of waiting, enough messages, and five times the wait before', () => {
    expect(backlogSignal(d(MIN_WAIT_MS, 4))).not.toBeNull();
    expect(backlogSignal(d(MIN_WAIT_MS - 1, 4))).toBeNull();
    expect(backlogSignal(d(5000, 4, MIN_HOPS - 1))).toBeNull();
    expect(backlogSignal(d(5000, 1000))).not.toBeNull();
    expect(backlogSignal(d(4999, 1000))).toBeNull();
    expect(backlogSignal(null)).toBeNull();
  });
});

describe('in the summary', () => {
  const base = { memory: [], prevMemory: [], cpu: [], prevCpu: [], lag: [], prevLag: [], restarts: 0, trafficRatio: 1 };

  it('scores a backlog once, whether the gauge, the spans or both tell of it', () => {
    const lag = [{ timeNs: 1n, value: 5000 }];
    expect(saturation({ ...base, backlog: 'messages wait' }).score).toBe(25);
    expect(saturation({ ...base, lag }).score).toBe(25);
    expect(saturation({ ...base, lag, backlog: 'messages wait' })).toEqual({ signals: ['consumer lag 0 -> 5,000 messages', 'messages wait'], score: 25 });
  });

  it('a consumer whose messages wait minutes stands out though its spans are as fast as ever', () => {
    const out = compareServices(input({ health: [health('fraud'), health('checkout')], delaysNow: [row('fraud', 500, 400_000)], delaysPrev: [row('fraud', 500, 5)] }));
    expect(out[0].service).toBe('fraud');
    expect(out[0].score).toBe(25);
    expect(out[0].signals[0]).toMatch(/^messages wait 6\.7 min on average/);
  });
});
