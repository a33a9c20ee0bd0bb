import { describe, expect, it } from 'vitest';
import type { CallSpanRow } from '../../../src/colony/store/queries/calls.js';
import { bestTimes, serviceTimes } from '../../../src/colony/unified/self-time.js';

/**
 * Self time on hand-placed spans: overlapping, nested, touching and separate waits; which client spans
 * count as waiting on a callee; consumers as servers; the moments of duration and self time; and the
 * source chosen per service.
 */
let seq = 0;
const row = (p: Partial<CallSpanRow> & Pick<CallSpanRow, 'service' | 'kind'>): CallSpanRow =>
  ({ traceId: 't', spanId: `s${++seq}`, parentSpanId: '', source: 'otlp', startMs: 0, durationMs: 0, error: false, peer: null, ...p });

/** A server span of `api` (0..100 ms) with client calls at the given [start, end] to `peer`. */
function api(calls: [number, number, string?][], known = new Set(['api', 'db-svc', 'other'])) {
  const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
  const clients = calls.map(([a, b, peer]) => row({ service: 'api', kind: 'CLIENT', parentSpanId: 'root', startMs: a, durationMs: b - a, peer: peer ?? 'db-svc' }));
  return serviceTimes([server, ...clients], known).find((t) => t.service === 'api');
}

describe('the time waited, as a union of intervals', () => {
  it('overlapping calls count once', () => {
    expect(api([[10, 30], [20, 50]])?.self.sum).toBe(60);
  });

  it('a call inside another adds nothing', () => {
    expect(api([[10, 60], [20, 30]])?.self.sum).toBe(50);
  });

  it('separate calls add up, in any order', () => {
    expect(api([[70, 80], [10, 20], [40, 50]])?.self.sum).toBe(70);
  });

  it('calls that touch count as one run', () => {
    expect(api([[10, 20], [20, 30]])?.self.sum).toBe(80);
  });

  it('one call is its own length; none leaves the whole duration', () => {
    expect(api([[0, 100]])?.self.sum).toBe(0);
    expect(api([])?.self.sum).toBe(100);
  });

  it('self time is never negative (a call outlasting its parent)', () => {
    expect(api([[0, 150]])?.self.sum).toBe(0);
  });

  it('the time waited per callee is the sum of its calls, overlapping or not', () => {
    expect(api([[10, 30], [20, 50]])?.callees.get('db-svc')).toEqual({ waitedMs: 50, calls: 2, failedCalls: 0, abandoned: 0 });
  });
});

describe('which client spans are waits on a callee', () => {
  it('calls to a peer without telemetry of its own stay the caller\'s own work', () => {
    const t = api([[10, 50, 'postgres']]);
    expect([t?.self.sum, t?.callees.size]).toEqual([100, 0]);
  });

  it('a client span without a peer or answering server is not a wait', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const client = row({ service: 'api', kind: 'CLIENT', parentSpanId: 'root', startMs: 0, durationMs: 40, peer: null });
    expect(serviceTimes([server, client], new Set(['api']))[0].self.sum).toBe(100);
  });

  it('a call to itself is not a wait on a callee', () => {
    const t = api([[10, 50, 'api']]);
    expect([t?.self.sum, t?.callees.size]).toEqual([100, 0]);
  });

  it('a client span of another service under the same parent is not this service\'s call', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const foreign = row({ service: 'sidecar', kind: 'CLIENT', parentSpanId: 'root', startMs: 0, durationMs: 40, peer: 'db-svc' });
    expect(serviceTimes([server, foreign], new Set(['api', 'db-svc']))[0].self.sum).toBe(100);
  });

  it('a call the caller\'s own server span answered counts toward the peer the client named', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const client = row({ service: 'api', kind: 'CLIENT', spanId: 'c0', parentSpanId: 'root', startMs: 0, durationMs: 40, peer: 'db-svc' });
    const answer = row({ service: 'api', kind: 'SERVER', spanId: 'self', parentSpanId: 'c0', startMs: 5, durationMs: 30 });
    const t = serviceTimes([server, client, answer], new Set(['api', 'db-svc'])).find((x) => x.service === 'api');
    expect([...(t?.callees.keys() ?? [])]).toEqual(['db-svc']);
  });

  it('the answering server names the callee, over the peer the caller named', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const client = row({ service: 'api', kind: 'CLIENT', spanId: 'c1', parentSpanId: 'root', startMs: 0, durationMs: 40, peer: 'lb.internal' });
    const answer = row({ service: 'db-svc', kind: 'SERVER', spanId: 'srv', parentSpanId: 'c1', startMs: 5, durationMs: 30 });
    const t = serviceTimes([server, client, answer], new Set(['api', 'db-svc']));
    expect([...t[0].callees.keys()]).toEqual(['db-svc']);
    expect(t.map((x) => [x.service, x.self.sum])).toEqual([['api', 60], ['db-svc', 30]]);
  });

  it('a consumer span answers the call that sent its message', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const send = row({ service: 'api', kind: 'CLIENT', spanId: 'send', parentSpanId: 'root', startMs: 0, durationMs: 30, peer: null });
    const consume = row({ service: 'worker', kind: 'CONSUMER', parentSpanId: 'send', durationMs: 50 });
    const t = serviceTimes([server, send, consume], new Set(['api', 'worker']));
    expect(t.map((x) => [x.service, x.self.sum, [...x.callees.keys()]])).toEqual([['api', 70, ['worker']], ['worker', 50, []]]);
  });

  it('spans of another trace with the same ids are not linked', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const client = row({ service: 'api', kind: 'CLIENT', parentSpanId: 'root', traceId: 'other', startMs: 0, durationMs: 40, peer: 'db-svc' });
    expect(serviceTimes([server, client], new Set(['api', 'db-svc']))[0].self.sum).toBe(100);
  });

  it('a failed call is abandoned only when the callee answered without failing', () => {
    const server = row({ service: 'api', kind: 'SERVER', spanId: 'root', durationMs: 100 });
    const gaveUp = row({ service: 'api', kind: 'CLIENT', spanId: 'c1', parentSpanId: 'root', durationMs: 10, error: true, peer: 'db-svc' });
    const answered = row({ service: 'db-svc', kind: 'SERVER', parentSpanId: 'c1', durationMs: 50 });
    const failedToo = row({ service: 'api', kind: 'CLIENT', spanId: 'c2', parentSpanId: 'root', durationMs: 10, error: true, peer: 'db-svc' });
    const failedAnswer = row({ service: 'db-svc', kind: 'SERVER', parentSpanId: 'c2', durationMs: 5, error: true });
    const noAnswer = row({ service: 'api', kind: 'CLIENT', parentSpanId: 'root', durationMs: 10, error: true, peer: 'db-svc' });
    const t = serviceTimes([server, gaveUp, answered, failedToo, failedAnswer, noAnswer], new Set(['api', 'db-svc']));
    expect(t[0].callees.get('db-svc')).toMatchObject({ calls: 3, failedCalls: 3, abandoned: 1 });
  });
});

describe('per service and source', () => {
  it('consumers count as servers; a root server span has no server parent to link', () => {
    const consumer = row({ service: 'worker', kind: 'CONSUMER', spanId: 'w', durationMs: 40 });
    const t = serviceTimes([consumer], new Set(['worker']));
    expect(t.map((x) => [x.service, x.duration.n, x.duration.sum])).toEqual([['worker', 1, 40]]);
  });

  it('adds each request to the moments of its service and source', () => {
    const rows = [
      row({ service: 'api', kind: 'SERVER', durationMs: 10 }),
      row({ service: 'api', kind: 'SERVER', durationMs: 30 }),
      row({ service: 'api', kind: 'SERVER', durationMs: 50, source: 'ebpf' }),
      row({ service: 'api', kind: 'CLIENT', durationMs: 99, peer: 'x' }),
    ];
    const t = serviceTimes(rows, new Set(['api']));
    expect(t.map((x) => [x.source, x.duration, x.self])).toEqual([
      ['otlp', { n: 2, sum: 40, sumSq: 1000 }, { n: 2, sum: 40, sumSq: 1000 }],
      ['ebpf', { n: 1, sum: 50, sumSq: 2500 }, { n: 1, sum: 50, sumSq: 2500 }],
    ]);
  });

  it('bestTimes keeps, per service, the source with the most requests; the first of equals', () => {
    const m = (n: number) => ({ n, sum: 0, sumSq: 0 });
    const t = (service: string, source: 'otlp' | 'ebpf', n: number) => ({ service, source, duration: m(n), self: m(n), callees: new Map() });
    const best = bestTimes([t('a', 'otlp', 5), t('a', 'ebpf', 9), t('b', 'ebpf', 3), t('b', 'otlp', 3)]);
    expect([...best].map(([k, v]) => [k, v.source])).toEqual([['a', 'ebpf'], ['b', 'ebpf']]);
  });
});
