import { describe, expect, it } from 'vitest';
import { histogramViews, spanViews } from '../../../src/colony/unified/operations.js';
import type { ChangeEvent } from '../../../src/colony/unified/onset.js';
import { SATURATION_GAUGES, type ServiceChange, type SummaryInput, compareServices, standOut } from '../../../src/colony/unified/summary.js';
import { addMoment } from '../../../src/colony/unified/stats.js';
import { FROM, MIN, PREV_FROM, TO, health, input, minutes, op, times } from './summary-input.js';

/** One service's change, from an input holding only that service. */
const one = (parts: Partial<SummaryInput>) => compareServices(input({ health: [health('a')], ...parts }))[0];
const ops = (prev: ReturnType<typeof op>, now: ReturnType<typeof op>) => ({ opsPrev: spanViews(prev), opsNow: spanViews(now) });
const gauge = (metric: string, timeNs: bigint, value: number, service = 'a', series = `${service}/${metric}`) => ({ service, metric, series, timeNs, value });
const event = (timeNs: bigint, kind: ChangeEvent['kind'], service = 'a'): ChangeEvent => ({ timeNs, serviceName: service, kind, title: `${kind} x` });

describe('compareServices: missing telemetry', () => {
  it('scores a "no telemetry" reason 20 when unhealthy and 8 otherwise, ignoring other reasons', () => {
    const out = compareServices(input({ health: [
      { ...health('a'), status: 'unhealthy', reasons: ['no telemetry for 12 min', 'error rate 5%', 'stale: no telemetry'] },
      { ...health('b'), status: 'degraded', reasons: ['no telemetry for 3 min'] },
    ] }));
    expect(out.map((c) => [c.service, c.signals, c.score, c.status])).toEqual([
      ['a', ['no telemetry for 12 min'], 20, 'unhealthy'],
      ['b', ['no telemetry for 3 min'], 8, 'degraded'],
    ]);
  });
});

describe('compareServices: traffic', () => {
  it('says traffic stopped when a service that served requests serves none', () => {
    expect(one(ops(op('a', 'GET /', 10, 900), op('a', 'GET /', 10, 0)))).toMatchObject({ signals: ['traffic stopped'], score: 30, requests: 0, prevRequests: 900, ratePerSec: 0, prevRatePerSec: 0.5 });
  });

  it('reports a significant change of rate, whole numbers from 10/s up', () => {
    expect(one(ops(op('a', 'GET /', 10, 18000), op('a', 'GET /', 10, 36000)))).toMatchObject({ signals: ['traffic 10/s -> 20/s'], score: 4, ratePerSec: 20, prevRatePerSec: 10 });
    expect(one(ops(op('a', 'GET /', 10, 9000), op('a', 'GET /', 10, 3000))).signals).toEqual(['traffic 5.00/s -> 1.67/s']);
  });

  it('needs a change of at least half, a previous rate above 0.05/s and a count z of at least 4', () => {
    const at = (windowSec: number, prev: number, now: number) => one({ windowSec, ...ops(op('a', 'GET /', 10, prev), op('a', 'GET /', 10, now)) }).signals;
    expect(at(1000, 1000, 1500)).toEqual(['traffic 1.00/s -> 1.50/s']);
    expect(at(1000, 1000, 1490)).toEqual([]);
    expect(at(1000, 50, 500)).toEqual([]);
    expect(at(1000, 60, 500)).toEqual(['traffic 0.06/s -> 0.50/s']);
    // 70 against 30: z = 40 / sqrt(100) = 4 exactly.
    expect(at(60, 30, 70)).toEqual(['traffic 0.50/s -> 1.17/s']);
    expect(at(60, 30, 60)).toEqual([]);
  });
});

describe('compareServices: errors', () => {
  it('reports rising errors against the previous rate, scoring 200 per unit of added rate', () => {
    expect(one(ops(op('a', 'GET /', 10, 1000, 10), op('a', 'GET /', 10, 1000, 150)))).toMatchObject({
      signals: ['errors 1.0% -> 15.0%'], score: 28, failing: true, chronic: false, errorRate: 0.15, prevErrorRate: 0.01, errors: 150, prevErrors: 10,
    });
  });

  it('reports new errors alone when there was no previous window to compare with', () => {
    expect(one({ opsNow: spanViews(op('a', 'GET /', 10, 1000, 150)) })).toMatchObject({ signals: ['errors 15.0%'], score: 30, prevErrorRate: null, prevRequests: null, prevErrors: null, prevRatePerSec: null });
  });

  it('compares a source only with itself', () => {
    const c = one({ opsPrev: spanViews(op('a', 'GET /', 10, 1000, 10, 'ebpf')), opsNow: spanViews(op('a', 'GET /', 10, 1000, 150)) });
    expect(c).toMatchObject({ signals: ['errors 15.0%'], prevRequests: null, basis: 'SDK spans' });
  });

  it('calls errors that were there before chronic, not failing, and scores them nothing', () => {
    expect(one(ops(op('a', 'GET /', 10, 1000, 50), op('a', 'GET /', 10, 1000, 52)))).toMatchObject({
      signals: ['errors 5.1%, chronic (5.0% in the previous window)'], score: 0, chronic: true, failing: false,
    });
  });

  it('finds the operation whose errors rose when the service\'s total hides it, the worst one first', () => {
    const c = one(ops(
      [...op('a', 'GET /big', 10, 10000), ...op('a', 'POST /small', 10, 100), ...op('a', 'PUT /mid', 10, 100)],
      [...op('a', 'GET /big', 10, 10000), ...op('a', 'PUT /mid', 10, 100, 20), ...op('a', 'POST /small', 10, 100, 30)],
    ));
    expect(c).toMatchObject({ signals: ['POST /small errors 0.0% -> 30.0% (SDK spans)'], score: 30, failing: true });
  });
});

describe('compareServices: latency', () => {
  it('reports a slower P95 with 10 points per doubling, naming the view only for histograms', () => {
    expect(one(ops(op('a', 'GET /', 10, 1000), op('a', 'GET /', 40, 1000)))).toMatchObject({ signals: ['P95 15ms -> 59ms'], score: 20, slower: true, p95Ms: expect.closeTo(58.9, 1), prevP95Ms: expect.closeTo(14.7, 1) });
    const h = (shares: number[]) => ({ bounds: [5, 10, 20, 40, 80, 160], counts: shares.map((x) => x * 10) });
    const row = (shares: number[]) => histogramViews([{ service: 'a', source: 'ebpf', kind: 'server', operation: 'GET /', failed: false, histogram: h(shares) }]);
    expect(one({ opsPrev: row([0, 10, 80, 10, 0, 0, 0]), opsNow: row([0, 0, 10, 10, 70, 10, 0]) })).toMatchObject({ signals: ['P95 30ms -> 120ms (eBPF histogram)'], score: 20, basis: 'eBPF histogram', p95Ms: 120, prevP95Ms: 30 });
  });

  it('adds the slowest operation when it says more than the service total, and counts it instead', () => {
    const c = one(ops(
      [...op('a', 'GET /big', 10, 10000), ...op('a', 'GET /slow', 10, 300), ...op('a', 'GET /slower', 10, 300)],
      [...op('a', 'GET /big', 10, 10000), ...op('a', 'GET /slow', 80, 300), ...op('a', 'GET /slower', 300, 300)],
    ));
    expect(c.signals).toEqual(['P95 15ms -> 72ms', 'GET /slower P95 15ms -> 396ms (300 requests, SDK spans)']);
    expect(c.score).toBe(47.5);
  });

  it('notes a second source with too few samples to rank on, but only beside a slowdown', () => {
    const both = (ms: number) => [...op('a', 'GET /', ms, 1000), ...op('a', 'GET /', ms, 20, 0, 'ebpf')];
    expect(one(ops(both(10), both(40))).signals).toEqual(['P95 15ms -> 59ms', 'eBPF spans: too few samples (20) to rank on']);
    expect(one(ops(both(10), both(10))).signals).toEqual([]);
  });

  it('reports own time per request when it rose by half and 2 ms, from 20 requests in each window', () => {
    const self = (prevN: number, prevMs: number, nowN: number, nowMs: number) => one({ timesPrev: [times('a', prevN, prevMs)], timesNow: [times('a', nowN, nowMs)] });
    expect(self(20, 10, 20, 15)).toMatchObject({ signals: ['own time per request 10ms -> 15ms (not spent in its callees)'], score: 10.8, slower: true, basis: 'no requests' });
    expect(self(20, 2, 20, 4).signals).toEqual(['own time per request 2ms -> 4ms (not spent in its callees)']);
    expect(self(20, 2, 20, 3.9).signals).toEqual([]);
    expect(self(20, 10, 20, 14.9).signals).toEqual([]);
    expect(self(19, 10, 20, 30).signals).toEqual([]);
    expect(self(20, 10, 19, 30).signals).toEqual([]);
    // A previous mean of 0 counts as 0.05 ms: log2(3 / 0.05) * 10 + 5.
    expect(self(20, 0, 20, 3).score).toBe(64.1);
  });
});

describe('compareServices: saturation in its window', () => {
  it('reads memory, CPU and consumer lag gauges of the service', () => {
    const mem = [gauge('process.memory.usage', PREV_FROM + MIN, 100e6), gauge('process.memory.usage', FROM + MIN, 150e6)];
    expect(one({ gauges: mem })).toMatchObject({ signals: ['memory 100 MB -> 150 MB'], score: 8 });
    expect(one({ gauges: [gauge('process.cpu.utilization', PREV_FROM + MIN, 0.1), gauge('process.cpu.utilization', FROM + MIN, 0.5)] })).toMatchObject({ signals: ['CPU 10.0% -> 50.0%'], score: 5 });
    expect(one({ gauges: [gauge('messaging.kafka.consumer.lag', PREV_FROM + MIN, 10), gauge('messaging.kafka.consumer.lag', FROM + MIN, 1000)] })).toMatchObject({ signals: ['consumer lag 10 -> 1,000 messages'], score: 25 });
    expect(SATURATION_GAUGES).toEqual(['process.memory.usage', 'process.cpu.utilization', 'messaging.kafka.consumer.lag']);
  });

  it('does not read process memory and CPU of services without a name (the SDK default: many unrelated processes)', () => {
    const climbs = (service: string) => [
      gauge('process.memory.usage', PREV_FROM + MIN, 100e6, service), gauge('process.memory.usage', FROM + MIN, 300e6, service),
      gauge('process.cpu.utilization', PREV_FROM + MIN, 0.1, service), gauge('process.cpu.utilization', FROM + MIN, 0.5, service),
    ];
    const read = (service: string) => compareServices(input({ health: [health(service)], gauges: climbs(service) }))[0].signals;
    expect(read('unknown_service')).toEqual([]);
    expect(read('unknown_service:java')).toEqual([]);
    expect(read('unknown_services')).toEqual(['memory 100 MB -> 300 MB', 'CPU 10.0% -> 50.0%']);
  });

  it('puts a point at the window\'s start in the previous window and one at its end in this one', () => {
    const m = (t: bigint, v: number) => gauge('process.memory.usage', t, v);
    expect(one({ gauges: [m(PREV_FROM + MIN, 100e6), m(FROM, 100e6), m(TO, 150e6)] }).signals).toEqual(['memory 100 MB -> 150 MB']);
    // Not counted: the start of the previous window, after the end, another service, another metric.
    expect(one({ gauges: [m(PREV_FROM, 10e6), m(PREV_FROM + MIN, 100e6), m(FROM + MIN, 149e6), m(TO + 1n, 300e6), gauge('process.memory.usage', FROM + MIN, 300e6, 'b'), gauge('process.cpu.utilization', FROM + MIN, 300e6)] }).signals).toEqual([]);
  });

  it('counts restarts and crashes of the service after the window starts', () => {
    expect(one({ events: [event(FROM + MIN, 'restart'), event(FROM + 2n * MIN, 'crash')] })).toMatchObject({ signals: ['2 restarts'], score: 10 });
    expect(one({ events: [event(FROM, 'restart'), event(FROM + 2n * MIN, 'crash'), event(FROM + 2n * MIN, 'deploy'), event(FROM + 2n * MIN, 'restart', 'b')] }).signals).toEqual([]);
  });

  it('uses the traffic ratio to tell CPU with load from CPU without', () => {
    const cpu = [gauge('process.cpu.utilization', PREV_FROM + MIN, 0.1), gauge('process.cpu.utilization', FROM + MIN, 0.5)];
    expect(one({ gauges: cpu, ...ops(op('a', 'GET /', 10, 1000), op('a', 'GET /', 10, 5000)) }).signals).toContain('CPU 10.0% -> 50.0%, with load');
  });
});

describe('compareServices: onset and trigger', () => {
  const errs = ops(op('a', 'GET /', 10, 1000, 10), op('a', 'GET /', 10, 1000, 150));
  it('dates the step and names a change just after it', () => {
    const c = one({ ...errs, minutes: minutes('a', 42, 'errors'), events: [event(PREV_FROM + 43n * MIN, 'config_change')] });
    expect(c.signals).toEqual(['errors 1.0% -> 15.0%', 'started ~17:22, 1 min before change: config_change x']);
    expect([c.onset, c.trigger, c.score]).toEqual(['1970-01-01T17:22:00.000Z', 'config_change at 1970-01-01T17:23:00.000Z: config_change x', 38]);
  });

  it('says "0 min after" a deploy at the onset minute itself', () => {
    expect(one({ ...errs, minutes: minutes('a', 42, 'errors'), events: [event(PREV_FROM + 42n * MIN, 'deploy')] }).signals[1]).toBe('started ~17:22, 0 min after deploy: deploy x');
  });

  it('dates the step without a trigger, also for saturation alone, from the source with most requests', () => {
    expect(one({ ...errs, minutes: minutes('a', 42, 'errors') })).toMatchObject({ signals: ['errors 1.0% -> 15.0%', 'started ~17:22'], trigger: null, score: 28 });
    const mem = [gauge('process.memory.usage', PREV_FROM + MIN, 100e6), gauge('process.memory.usage', FROM + MIN, 150e6)];
    expect(one({ gauges: mem, minutes: minutes('a', 42, 'latency') }).signals).toEqual(['memory 100 MB -> 150 MB', 'started ~17:22']);
    const fewer = minutes('a', 50, 'errors').map((m) => ({ ...m, source: 'ebpf' as const, requests: 50 }));
    expect(one({ ...errs, minutes: [...minutes('a', 42, 'errors'), ...fewer] }).onset).toBe('1970-01-01T17:22:00.000Z');
    expect(one({ ...errs, minutes: [...fewer, ...minutes('a', 42, 'errors')] }).onset).toBe('1970-01-01T17:22:00.000Z');
  });

  it('looks for no onset when nothing changed', () => {
    expect(one({ minutes: minutes('a', 42, 'errors') })).toMatchObject({ signals: [], onset: null });
  });
});

describe('compareServices: order', () => {
  it('ranks by score, then by name', () => {
    const out = compareServices(input({ health: [health('b'), health('a'), health('c')], ...ops(op('c', 'GET /', 10, 1000, 10), op('c', 'GET /', 10, 1000, 150)) }));
    expect(out.map((c) => [c.service, c.score])).toEqual([['c', 28], ['a', 0], ['b', 0]]);
  });
});

describe('standOut', () => {
  const change = (service: string, score: number, failing = false, slower = false) => ({ service, score, failing, slower }) as ServiceChange;
  it('keeps scores of 5 that failed or slowed, and any score of 8', () => {
    const all = [change('a', 5, true), change('b', 5, false, true), change('c', 4.9, true), change('d', 7.9), change('e', 8), change('f', 5)];
    expect(standOut(all).map((c) => c.service)).toEqual(['a', 'b', 'e']);
  });
});

describe('compareServices: the quiet cases and the guards', () => {
  it('a service with nothing to say is neither chronic, failing nor slower, with an error rate of 0', () => {
    expect(one({})).toMatchObject({ signals: [], score: 0, chronic: false, failing: false, slower: false, errorRate: 0, prevErrorRate: null, basis: 'no requests', onset: null });
  });

  it('looks for no onset when nothing changed, even with a step in the minutes', () => {
    expect(one({ ...ops(op('a', 'GET /', 10, 1000), op('a', 'GET /', 10, 1000)), minutes: minutes('a', 42, 'latency') })).toMatchObject({ signals: [], onset: null });
  });

  it('dates the step from the service\'s own minutes, the first source on a tie', () => {
    const errs = ops(op('a', 'GET /', 10, 1000, 10), op('a', 'GET /', 10, 1000, 150));
    const other = minutes('b', 50, 'errors').map((m) => ({ ...m, requests: 500 }));
    expect(one({ ...errs, minutes: [...minutes('a', 42, 'errors'), ...other] }).onset).toBe('1970-01-01T17:22:00.000Z');
    const tie = minutes('a', 50, 'errors').map((m) => ({ ...m, source: 'ebpf' as const }));
    expect(one({ ...errs, minutes: [...minutes('a', 42, 'errors'), ...tie] }).onset).toBe('1970-01-01T17:22:00.000Z');
  });

  it('needs own times in both windows, and a significant rise of the mean', () => {
    expect(one({ timesNow: [times('a', 20, 30)] }).signals).toEqual([]);
    // Means 10 -> 20 ms, but values of 0 and 20 (then 0 and 40) make the rise far from significant.
    const noisy = (hi: number) => {
      const t = times('a', 0, 0);
      for (let i = 0; i < 20; i++) addMoment(t.self, i % 2 === 0 ? 0 : hi);
      return t;
    };
    expect(one({ timesPrev: [noisy(20)], timesNow: [noisy(40)] }).signals).toEqual([]);
  });

  it('compares a view only with the previous view of the same source and basis', () => {
    const h = (shares: number[]) => ({ bounds: [5, 10, 20, 40, 80, 160], counts: shares.map((x) => x * 10) });
    const prev = histogramViews([{ service: 'a', source: 'ebpf', kind: 'server', operation: 'GET /', failed: false, histogram: h([0, 10, 80, 10, 0, 0, 0]) }]);
    expect(one({ opsPrev: prev, opsNow: spanViews(op('a', 'GET /', 10, 1000, 150, 'ebpf')) })).toMatchObject({ prevRequests: null, signals: ['errors 15.0%'] });
  });

  it('reads a service that only has database operations without failing', () => {
    const db = spanViews(op('a', 'SELECT', 10, 1000).map((r) => ({ ...r, kind: 'db' as const })));
    expect(one({ opsPrev: db, opsNow: db })).toMatchObject({ signals: [], basis: 'no requests' });
  });

  it('scores a rising operation by the rise of its own error rate', () => {
    const c = one(ops(
      [...op('a', 'GET /big', 10, 10000), ...op('a', 'POST /small', 10, 100, 10)],
      [...op('a', 'GET /big', 10, 10000), ...op('a', 'POST /small', 10, 100, 40)],
    ));
    expect(c).toMatchObject({ signals: ['POST /small errors 10.0% -> 40.0% (SDK spans)'], score: 30 });
  });

  it('says traffic stopped only when there was traffic before', () => {
    expect(one(ops(op('a', 'GET /', 10, 0), op('a', 'GET /', 10, 0))).signals).toEqual([]);
  });

  it('judges CPU against the traffic ratio, 1 without previous traffic', () => {
    const cpu = [gauge('process.cpu.utilization', PREV_FROM + MIN, 0.1), gauge('process.cpu.utilization', FROM + MIN, 0.5)];
    expect(one({ gauges: cpu, ...ops(op('a', 'GET /', 10, 1000), op('a', 'GET /', 10, 1000)) }).signals).toEqual(['CPU 10.0% -> 50.0%']);
    expect(one({ gauges: cpu, opsNow: spanViews(op('a', 'GET /', 10, 1000)) }).signals).toEqual(['CPU 10.0% -> 50.0%']);
  });
});

describe('compareServices: which sampled view confirms a slowdown', () => {
  const slowed = (extraPrev: ReturnType<typeof op>, extraNow: ReturnType<typeof op>) =>
    one(ops([...op('a', 'GET /', 10, 1000), ...extraPrev], [...op('a', 'GET /', 40, 1000), ...extraNow])).signals;
  it('cites only a server view of this service that served requests', () => {
    const ebpf = (ms: number, n: number, service = 'a') => op(service, 'GET /', ms, n, 0, 'ebpf');
    expect(slowed(ebpf(10, 20), ebpf(40, 20))).toContain('eBPF spans: too few samples (20) to rank on');
    expect(slowed(ebpf(10, 20, 'b'), ebpf(40, 20, 'b'))).toEqual(['P95 15ms -> 59ms']);
    expect(slowed(ebpf(10, 20), ebpf(40, 0))).toEqual(['P95 15ms -> 59ms']);
    const db = (ms: number) => ebpf(ms, 20).map((r) => ({ ...r, kind: 'db' as const }));
    expect(slowed(db(10), db(40))).toEqual(['P95 15ms -> 59ms']);
  });

  it('never cites a rare operation of the view the service is ranked on', () => {
    expect(slowed(op('a', 'GET /rare', 10, 20), op('a', 'GET /rare', 10, 20))).toEqual(['P95 15ms -> 59ms']);
  });
});
