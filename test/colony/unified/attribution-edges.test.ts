import { describe, expect, it } from 'vitest';
import type { TopologyEdge } from '../../../src/colony/store/queries/topology.js';
import { type AttributionInput, EXPLAINED_SHARE, attribute } from '../../../src/colony/unified/attribution.js';
import type { CalleeTime, ServiceTime } from '../../../src/colony/unified/self-time.js';
import type { ServiceChange } from '../../../src/colony/unified/summary.js';

/**
 * Blame travelling upstream, on hand-set changes: the share that explains, traffic scaling, which
 * edges count, the texts and scores each explanation writes, latency waits, chains and cycles.
 */
function svc(service: string, p: Partial<ServiceChange> = {}): ServiceChange {
  return {
    service, sources: ['otlp'], status: '', ratePerSec: 1, prevRatePerSec: 1, requests: 100, errors: 0, prevRequests: 100, prevErrors: 0, errorRate: 0, prevErrorRate: 0,
    p95Ms: null, prevP95Ms: null, basis: 'SDK spans', signals: [], score: 10, chronic: false, failing: false, slower: false, onset: null, trigger: null, explainedBy: null, ...p,
  };
}
const edge = (from: string, to: string, errors: number, p: Partial<TopologyEdge> = {}): TopologyEdge => ({ from, to, kind: 'service', protocol: 'http', calls: 100, errors, sources: ['otlp'], ...p });
const none: AttributionInput = { timesNow: [], timesPrev: [], edgesNow: [], edgesPrev: [] };
const by = (xs: ServiceChange[]) => Object.fromEntries(xs.map((x) => [x.service, x]));

describe('new failures explained by a failing callee', () => {
  it('writes why on both sides, ranks the callee above the caller and the caller just below', () => {
    const out = attribute([svc('api', { failing: true, errors: 40, score: 50 }), svc('db', { failing: true, errors: 30, score: 20 })], { ...none, edgesNow: [edge('api', 'db', 30)] });
    expect(out.map((c) => [c.service, c.score, c.explainedBy, c.signals])).toEqual([
      ['db', 51, null, ["explains api's new failures"]],
      ['api', 50, 'db', ['its new failures are failing calls to db (+30)']],
    ]);
  });

  it('explains at exactly half of the new failures; just under is not enough', () => {
    expect(EXPLAINED_SHARE).toBe(0.5);
    const run = (edgeErrors: number) => by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { failing: true })], { ...none, edgesNow: [edge('api', 'db', edgeErrors)] })).api.explainedBy;
    expect(run(20)).toBe('db');
    expect(run(19)).toBeNull();
  });

  it('scales the previous failures by the change in traffic, on the caller and on the edge', () => {
    // Traffic doubled: 10 failures before count as 20; 40 now is 20 new. The edge: 5 before count as 10.
    const changes = () => [svc('api', { failing: true, errors: 40, prevErrors: 10, requests: 200, prevRequests: 100 }), svc('db', { failing: true })];
    const run = (now: number) => by(attribute(changes(), { ...none, edgesNow: [edge('api', 'db', now)], edgesPrev: [edge('api', 'db', 5)] })).api;
    expect(run(20).explainedBy).toBe('db');
    expect(run(20).signals).toEqual(['its new failures are failing calls to db (+10)']);
    expect(run(19).explainedBy).toBeNull();
  });

  it('no new failures, no explanation', () => {
    const out = by(attribute([svc('api', { failing: true, errors: 20, prevErrors: 20 }), svc('db', { failing: true })], { ...none, edgesNow: [edge('api', 'db', 20)] }));
    expect(out.api.explainedBy).toBeNull();
  });

  it('takes the callee whose failing calls grew most; ignores other callers, external peers and unknown services', () => {
    const changes = [svc('api', { failing: true, errors: 40 }), svc('a', { failing: true }), svc('b', { failing: true }), svc('other', { failing: true })];
    const edgesNow = [edge('api', 'a', 21), edge('api', 'b', 25), edge('other', 'a', 99), edge('api', 'other', 99, { kind: 'external' }), edge('api', 'ghost', 99)];
    expect(by(attribute(changes, { ...none, edgesNow })).api.explainedBy).toBe('b');
  });

  it('a callee that is only slower explains failures as calls given up on, with the abandoned count when there is one', () => {
    const callee = (abandoned: number): CalleeTime => ({ waitedMs: 0, calls: 10, failedCalls: 10, abandoned });
    const time = (abandoned: number): ServiceTime => ({ service: 'api', source: 'otlp', duration: { n: 1, sum: 1, sumSq: 1 }, self: { n: 1, sum: 1, sumSq: 1 }, callees: new Map([['db', callee(abandoned)]]) });
    const run = (abandoned: number) => by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { slower: true })], { ...none, timesNow: [time(abandoned)], edgesNow: [edge('api', 'db', 30)] }));
    expect(run(0).api.signals).toEqual(['its new failures are calls to db it gave up waiting on (+30)']);
    expect(run(0).db.signals).toEqual(['api times out waiting on it: those failures count here']);
    expect(run(7).api.signals).toEqual(['its new failures are calls to db it gave up waiting on (+30; 7 abandoned while db still answered, in sampled traces)']);
  });

  it('a chronic callee is named only when the calls to it fail', () => {
    const out = by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { failing: true }), svc('old', { chronic: true })], { ...none, edgesNow: [edge('api', 'db', 5), edge('api', 'old', 0)] }));
    expect(out.api.signals).toEqual([]);
  });

  it('a callee neither failing nor slower explains nothing', () => {
    expect(by(attribute([svc('api', { failing: true, errors: 40 }), svc('db')], { ...none, edgesNow: [edge('api', 'db', 30)] })).api.explainedBy).toBeNull();
  });

  it('only a failing caller is explained by failures', () => {
    expect(by(attribute([svc('api', { errors: 40 }), svc('db', { failing: true })], { ...none, edgesNow: [edge('api', 'db', 30)] })).api.explainedBy).toBeNull();
  });

  it('a chronic callee is named as not what is new', () => {
    const out = by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { failing: true }), svc('old', { chronic: true })], { ...none, edgesNow: [edge('api', 'db', 5), edge('api', 'old', 3), edge('api', 'fine', 0)] }));
    expect(out.api.signals).toEqual(['its calls to old fail about as before (chronic there): not what is new']);
    expect(out.api.explainedBy).toBeNull();
  });
});

describe('added latency explained by waiting on a callee', () => {
  const m = (n: number, mean: number) => ({ n, sum: n * mean, sumSq: n * mean * mean });
  const wait = (waitedMs: number): CalleeTime => ({ waitedMs, calls: 1, failedCalls: 0, abandoned: 0 });
  const t = (n: number, mean: number, callees: [string, number][], source: 'otlp' | 'ebpf' = 'otlp'): ServiceTime => ({ service: 'api', source, duration: m(n, mean), self: m(n, mean), callees: new Map(callees.map(([c, w]) => [c, wait(w)])) });

  it('says what share of the added latency is waiting, and ranks the callee above', () => {
    // Mean 100 -> 180 ms (+80); waiting on db 40 -> 100 ms per request (+60): 75%.
    const out = attribute([svc('api', { slower: true, score: 30 }), svc('db', { slower: true, score: 5 })], { ...none, timesNow: [t(10, 180, [['db', 1000]])], timesPrev: [t(10, 100, [['db', 400]])] });
    expect(out.map((c) => [c.service, c.score, c.signals])).toEqual([
      ['db', 31, ["explains api's added latency (+60ms per request)"]],
      ['api', 30, ['75% of its added latency (+80ms per request) is spent waiting on db']],
    ]);
  });

  it('needs 10 requests in each window and a previous window from the same source', () => {
    const run = (now: ServiceTime, prev: ServiceTime) => by(attribute([svc('api', { slower: true }), svc('db', { slower: true })], { ...none, timesNow: [now], timesPrev: [prev] })).api.explainedBy;
    expect(run(t(10, 180, [['db', 1000]]), t(10, 100, [['db', 400]]))).toBe('db');
    expect(run(t(9, 180, [['db', 900]]), t(10, 100, [['db', 400]]))).toBeNull();
    expect(run(t(10, 180, [['db', 1000]]), t(9, 100, [['db', 360]]))).toBeNull();
    expect(run(t(10, 180, [['db', 1000]]), t(10, 100, [['db', 400]], 'ebpf'))).toBeNull();
  });

  it('at least half of the added latency; a callee new in this window counts all its waiting', () => {
    const run = (waited: number) => by(attribute([svc('api', { slower: true }), svc('db', { slower: true })], { ...none, timesNow: [t(10, 180, [['db', waited]])], timesPrev: [t(10, 100, [])] })).api;
    expect(run(400).explainedBy).toBe('db');
    expect(run(399).explainedBy).toBeNull();
    // Waiting grew by more than the latency did: capped at 100%.
    expect(run(2000).signals).toEqual(['100% of its added latency (+80ms per request) is spent waiting on db']);
  });

  it('no added latency, or a callee not changed, explains nothing', () => {
    const run = (nowMean: number, db: Partial<ServiceChange>) => by(attribute([svc('api', { slower: true }), svc('db', db)], { ...none, timesNow: [t(10, nowMean, [['db', 5000]])], timesPrev: [t(10, 100, [])] })).api.explainedBy;
    expect(run(100, { slower: true })).toBeNull();
    expect(run(180, {})).toBeNull();
    expect(run(180, { failing: true })).toBe('db');
  });

  it('the callee whose waiting grew most', () => {
    const out = by(attribute([svc('api', { slower: true }), svc('a', { slower: true }), svc('b', { slower: true })], { ...none, timesNow: [t(10, 180, [['a', 500], ['b', 700]])], timesPrev: [t(10, 100, [])] }));
    expect(out.api.explainedBy).toBe('b');
  });

  it('a failing caller whose failures no callee explains may still be explained by its waits', () => {
    const out = by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { slower: true })], { ...none, timesNow: [t(10, 180, [['db', 1000]])], timesPrev: [t(10, 100, [['db', 400]])] }));
    expect(out.api.explainedBy).toBe('db');
  });

  it('a caller that is not slower or failing is not explained', () => {
    expect(by(attribute([svc('api'), svc('db', { slower: true })], { ...none, timesNow: [t(10, 180, [['db', 1000]])], timesPrev: [t(10, 100, [])] })).api.explainedBy).toBeNull();
  });
});

describe('chains and cycles', () => {
  it('a chain ranks its root above every caller, and each caller at most just below its callee', () => {
    const out = attribute([svc('web', { failing: true, errors: 40, score: 60 }), svc('api', { failing: true, errors: 40, score: 20 }), svc('db', { failing: true, errors: 40, score: 5 })],
      { ...none, edgesNow: [edge('web', 'api', 40), edge('api', 'db', 40)] });
    expect(out.map((c) => [c.service, c.score, c.explainedBy])).toEqual([['db', 61, null], ['api', 20, 'db'], ['web', 19, 'api']]);
  });

  it('a cycle loses the first link found in it and keeps the other', () => {
    // a -> b -> a: walking from a, the link out of a closes the cycle and is dropped.
    const out = attribute([svc('a', { failing: true, errors: 40, score: 10 }), svc('b', { failing: true, errors: 40, score: 20 })], { ...none, edgesNow: [edge('a', 'b', 40), edge('b', 'a', 40)] });
    expect(out.map((c) => [c.service, c.explainedBy, c.score])).toEqual([['a', null, 21], ['b', 'a', 20]]);
  });

  it('a cycle further down a chain loses its own link, not the chain\'s first', () => {
    // a -> b -> c -> b: walking from a, the link out of b closes the cycle.
    const out = by(attribute(['a', 'b', 'c'].map((x) => svc(x, { failing: true, errors: 40 })), { ...none, edgesNow: [edge('a', 'b', 40), edge('b', 'c', 40), edge('c', 'b', 40)] }));
    expect([out.a.explainedBy, out.b.explainedBy, out.c.explainedBy]).toEqual(['b', null, 'b']);
  });

  it('scores are rounded to a tenth, and equal scores go by name', () => {
    const out = attribute([svc('zed', { score: 7 }), svc('api', { failing: true, errors: 40, score: 3.14159 }), svc('db', { failing: true, score: 3.14159 })], { ...none, edgesNow: [edge('api', 'db', 40)] });
    expect(out.map((c) => [c.service, c.score])).toEqual([['zed', 7], ['db', 4.14159], ['api', 3.1]]);
    const tie = attribute([svc('b', { score: 5 }), svc('a', { score: 5 })], none);
    expect(tie.map((c) => c.service)).toEqual(['a', 'b']);
  });
});

describe('which edge and which callee (mutation survivors)', () => {
  it('the previous failures on an edge are the caller\'s own, not another caller\'s to the same callee', () => {
    const run = (edgesPrev: TopologyEdge[]) => by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { failing: true })], { ...none, edgesNow: [edge('api', 'db', 30)], edgesPrev })).api.explainedBy;
    expect(run([edge('api', 'db', 0), edge('web', 'db', 100)])).toBe('db');
    expect(run([edge('api', 'db', 100)])).toBeNull();
  });

  it('of two callees whose failing calls grew alike, the first listed; a later, smaller one never replaces it', () => {
    // b fails, c is only slower: which one is picked shows in the caller's text.
    const run = (edgesNow: TopologyEdge[]) => by(attribute([svc('api', { failing: true, errors: 40 }), svc('b', { failing: true }), svc('c', { slower: true })], { ...none, edgesNow })).api.signals;
    expect(run([edge('api', 'b', 25), edge('api', 'c', 25)])).toEqual(['its new failures are failing calls to b (+25)']);
    expect(run([edge('api', 'b', 30), edge('api', 'c', 10)])).toEqual(['its new failures are failing calls to b (+30)']);
  });

  it('a chronic callee is looked for among the caller\'s own edges only, and never among peers the summary does not list', () => {
    const changes = () => [svc('api', { failing: true, errors: 40 }), svc('db', { failing: true }), svc('old', { chronic: true })];
    expect(by(attribute(changes(), { ...none, edgesNow: [edge('api', 'db', 5), edge('web', 'old', 3)] })).api.signals).toEqual([]);
    expect(by(attribute(changes(), { ...none, edgesNow: [edge('api', 'db', 5), edge('api', 'pg', 3, { kind: 'external' }), edge('api', 'old', 3)] })).api.signals)
      .toEqual(['its calls to old fail about as before (chronic there): not what is new']);
  });

  it('calls given up on: no sampled times for the caller, or none for that callee, mean no abandoned count', () => {
    const run = (timesNow: ServiceTime[]) => by(attribute([svc('api', { failing: true, errors: 40 }), svc('db', { slower: true })], { ...none, timesNow, edgesNow: [edge('api', 'db', 30)] })).api.signals;
    const other: ServiceTime = { service: 'api', source: 'otlp', duration: { n: 1, sum: 1, sumSq: 1 }, self: { n: 1, sum: 1, sumSq: 1 }, callees: new Map([['cache', { waitedMs: 0, calls: 1, failedCalls: 1, abandoned: 1 }]]) };
    expect(run([])).toEqual(['its new failures are calls to db it gave up waiting on (+30)']);
    expect(run([other])).toEqual(['its new failures are calls to db it gave up waiting on (+30)']);
  });

  it('latency: the callee whose waiting grew most even when listed first; of equal ones, the first', () => {
    const m = (n: number, mean: number) => ({ n, sum: n * mean, sumSq: n * mean * mean });
    const t = (n: number, mean: number, callees: [string, number][]): ServiceTime => ({ service: 'api', source: 'otlp', duration: m(n, mean), self: m(n, mean), callees: new Map(callees.map(([c, w]) => [c, { waitedMs: w, calls: 1, failedCalls: 0, abandoned: 0 }])) });
    const run = (callees: [string, number][]) => by(attribute([svc('api', { slower: true }), svc('a', { slower: true }), svc('b')], { ...none, timesNow: [t(10, 180, callees)], timesPrev: [t(10, 100, [])] })).api.explainedBy;
    expect(run([['a', 700], ['b', 500]])).toBe('a');
    // b is not slower: were it picked, nothing would be explained.
    expect(run([['a', 600], ['b', 600]])).toBe('a');
  });

  it('a longer chain caps each caller just below its callee as capped, nearest the root first', () => {
    // a -> b -> c -> d -> e. The root rises above every caller (71); d keeps 30, so c drops to 29,
    // b to 28 and a to 27: capping a before b would leave a at 50, above the services that explain it.
    const scores: [string, number][] = [['a', 50], ['b', 60], ['c', 70], ['d', 30], ['e', 10]];
    const out = attribute(scores.map(([s, score]) => svc(s, { failing: true, errors: 40, score })), { ...none, edgesNow: [edge('a', 'b', 40), edge('b', 'c', 40), edge('c', 'd', 40), edge('d', 'e', 40)] });
    expect(out.map((c) => [c.service, c.score])).toEqual([['e', 71], ['d', 30], ['c', 29], ['b', 28], ['a', 27]]);
  });
});
