import { describe, expect, it } from 'vitest';
import type { CallSpanRow } from '../../../src/colony/store/queries/calls.js';
import { elsewhereOrigin, errorOrigins } from '../../../src/colony/unified/error-origin.js';
import { attribute } from '../../../src/colony/unified/attribution.js';
import type { ServiceChange } from '../../../src/colony/unified/summary.js';

/** Where errors start: the deepest failing span of each sampled trace, and what attribution makes of it. */
let n = 0;
function span(traceId: string, service: string, kind: CallSpanRow['kind'], parentSpanId: string, error = false, peer: string | null = null, spanId = `s${++n}`): CallSpanRow {
  return { traceId, spanId, parentSpanId, service, source: 'otlp', kind, startMs: 0, durationMs: 1, error, peer };
}

/** frontend -> checkout -> payment, failing from `failFrom` down (payment's server span, or its call that never got an answer). */
function chain(t: string, failAt: 'payment' | 'unanswered' | 'checkout' | 'none'): CallSpanRow[] {
  const fe = span(t, 'frontend', 'SERVER', '', failAt !== 'none', null, `${t}-fe`);
  const call1 = span(t, 'frontend', 'CLIENT', fe.spanId, failAt !== 'none', 'checkout', `${t}-c1`);
  const co = span(t, 'checkout', 'SERVER', call1.spanId, failAt !== 'none', null, `${t}-co`);
  const call2 = span(t, 'checkout', 'CLIENT', co.spanId, failAt === 'payment' || failAt === 'unanswered', 'payment', `${t}-c2`);
  const out = [fe, call1, co, call2];
  if (failAt !== 'unanswered') out.push(span(t, 'payment', 'SERVER', call2.spanId, failAt === 'payment', null, `${t}-pa`));
  return out;
}

describe('errorOrigins', () => {
  it('the deepest failing span is the origin, counted for every service that failed a request in the trace', () => {
    const rows = [...chain('t1', 'payment'), ...chain('t2', 'payment'), ...chain('t3', 'checkout'), ...chain('t4', 'none')];
    const o = errorOrigins(rows);
    expect(o.get('frontend')).toEqual({ failingTraces: 3, origins: new Map([['payment', 2], ['checkout', 1]]) });
    expect(o.get('checkout')).toEqual({ failingTraces: 3, origins: new Map([['payment', 2], ['checkout', 1]]) });
    expect(o.get('payment')).toEqual({ failingTraces: 2, origins: new Map([['payment', 2]]) });
  });

  it('a failing call that no server answered began at the peer it named; one that names none tells nothing', () => {
    const o = errorOrigins(chain('t1', 'unanswered'));
    expect(o.get('frontend')?.origins).toEqual(new Map([['payment', 1]]));
    const unnamed = chain('t2', 'unanswered').map((s) => (s.spanId === 't2-c2' ? { ...s, peer: null } : s));
    expect(errorOrigins(unnamed).get('frontend')).toEqual({ failingTraces: 1, origins: new Map() });
  });

  it('an eBPF twin of a call that names no peer does not move the origin to the caller', () => {
    const rows = chain('t1', 'payment');
    rows.push(span('t1', 'checkout', 'CLIENT', 't1-co', true, null, 't1-ebpf'));
    expect(errorOrigins(rows).get('checkout')?.origins).toEqual(new Map([['payment', 1]]));
  });

  it('a failing call with no server under it whose callee answered its twin is no origin', () => {
    const rows = chain('t1', 'payment');
    rows.push(span('t1', 'frontend', 'CLIENT', 't1-fe', true, 'checkout', 't1-ebpf'));
    expect(errorOrigins(rows).get('payment')?.origins).toEqual(new Map([['payment', 1]]));
  });

  it('survives a span that is its own ancestor', () => {
    const a = span('t', 'x', 'SERVER', 'b', true, null, 'a');
    const b = span('t', 'x', 'CLIENT', 'a', true, 'y', 'b');
    expect(errorOrigins([a, b]).get('x')?.failingTraces).toBe(1);
  });
});

describe('elsewhereOrigin', () => {
  const counts = (failing: number, origins: [string, number][]) => new Map([['frontend', { failingTraces: failing, origins: new Map(origins) }]]);
  it('another origin of at least half of at least five failing traces; ties by name', () => {
    expect(elsewhereOrigin('frontend', counts(10, [['frontend', 4], ['cart', 5]]))).toEqual({ origin: 'cart', traces: 5, of: 10 });
    expect(elsewhereOrigin('frontend', counts(10, [['frontend', 5], ['cart', 5]]))).toBeNull();
    expect(elsewhereOrigin('frontend', counts(10, [['cart', 4]]))).toBeNull();
    expect(elsewhereOrigin('frontend', counts(4, [['cart', 4]]))).toBeNull();
    expect(elsewhereOrigin('frontend', counts(10, [['b', 6], ['a', 6]]))?.origin).toBe('a');
    expect(elsewhereOrigin('other', counts(10, [['cart', 10]]))).toBeNull();
  });
});

describe('in attribution, when the failed calls do not explain it', () => {
  const svc = (service: string, p: Partial<ServiceChange> = {}): ServiceChange => ({
    service, sources: ['otlp'], status: '', ratePerSec: 1, prevRatePerSec: 1, requests: 100, errors: 0, prevRequests: 100, prevErrors: 0, errorRate: 0, prevErrorRate: 0,
    p95Ms: null, prevP95Ms: null, basis: 'SDK spans', signals: [], score: 10, chronic: false, failing: false, slower: false, onset: null, trigger: null, explainedBy: null, ...p,
  });
  const none = { timesNow: [], timesPrev: [], edgesNow: [], edgesPrev: [] };

  it('a peer where the failing traces began, with no telemetry of its own, is named and ranked first', () => {
    const rows = Array.from({ length: 6 }, (_, i) => chain(`t${i}`, 'unanswered')).flat();
    const out = attribute([svc('frontend', { failing: true, errors: 30, score: 40 }), svc('checkout', { failing: true, errors: 30, score: 30 })], { ...none, origins: errorOrigins(rows) });
    expect(out.map((c) => [c.service, c.explainedBy])).toEqual([['payment', null], ['frontend', 'payment'], ['checkout', 'payment']]);
    expect(out[0].signals).toEqual([
      "sends no telemetry; errors start at calls to it: 6 of 6 of frontend's sampled failing traces began there",
      "sends no telemetry; errors start at calls to it: 6 of 6 of checkout's sampled failing traces began there",
    ]);
    expect(out[1].signals).toEqual(['6 of 6 of its sampled failing traces began at payment (the deepest failing span there)']);
  });

  it('a known origin that is only chronic explains nothing new', () => {
    const rows = Array.from({ length: 6 }, (_, i) => chain(`t${i}`, 'payment')).flat();
    const out = attribute([svc('checkout', { failing: true, errors: 30 }), svc('payment', { chronic: true })], { ...none, origins: errorOrigins(rows) });
    expect(out.find((c) => c.service === 'checkout')?.explainedBy).toBeNull();
  });
});
