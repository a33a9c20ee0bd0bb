import { describe, expect, it } from 'vitest';
import type { TopologyEdge } from '../../../src/colony/store/queries/topology.js';
import { type AttributionInput, attribute } from '../../../src/colony/unified/attribution.js';
import type { ChangeEvent } from '../../../src/colony/unified/onset.js';
import type { ServiceChange } from '../../../src/colony/unified/summary.js';

/**
 * Blame for callers' failures whose callee looks fine from its own spans: a callee that rejects the
 * calls after a change, a shared dependency every caller fails against, a callee that went silent or
 * never sent telemetry, and a circuit breaker that fails fast once its callee failed first.
 */
function svc(service: string, p: Partial<ServiceChange> = {}): ServiceChange {
  return {
    service, sources: ['otlp'], status: '', ratePerSec: 1, prevRatePerSec: 1, requests: 100, errors: 0, prevRequests: 100, prevErrors: 0, errorRate: 0, prevErrorRate: 0,
    p95Ms: null, prevP95Ms: null, basis: 'SDK spans', signals: [], score: 10, chronic: false, failing: false, slower: false, onset: null, trigger: null, explainedBy: null, ...p,
  };
}
const edge = (from: string, to: string, errors: number, p: Partial<TopologyEdge> = {}): TopologyEdge => ({ from, to, kind: 'service', protocol: 'grpc', calls: 100, errors, sources: ['otlp'], ...p });
const none: AttributionInput = { timesNow: [], timesPrev: [], edgesNow: [], edgesPrev: [], events: [] };
const by = (xs: ServiceChange[]) => Object.fromEntries(xs.map((x) => [x.service, x]));
const ONSET = '2025-03-04T09:40:00.000Z';
const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
const configPush: ChangeEvent = { timeNs: ns('2025-03-04T09:39:00.000Z'), serviceName: 'catalog', kind: 'config_change', title: 'catalog feature flags updated' };

describe('a callee that rejects its callers\' calls', () => {
  it('is blamed when it changed at the callers\' onset, and carries that change as its trigger', () => {
    const out = attribute([svc('checkout', { failing: true, errors: 30, score: 60, onset: ONSET }), svc('catalog', { score: 0 })],
      { ...none, edgesNow: [edge('checkout', 'catalog', 30)], events: [configPush] });
    expect(out.map((c) => c.service)).toEqual(['catalog', 'checkout']);
    const { catalog, checkout } = by(out);
    expect(checkout.explainedBy).toBe('catalog');
    expect(catalog.score).toBe(61);
    expect(catalog.trigger).toBe('config_change at 2025-03-04T09:39:00.000Z: catalog feature flags updated');
    expect(catalog.signals).toEqual(["rejects its callers' calls, client errors rather than server errors (failed calls from checkout (+30)), after its configuration change"]);
    expect(checkout.signals).toEqual(['its new failures are calls to catalog that fail (+30) while catalog shows no server errors: catalog rejects them']);
  });

  it('a change too long before the onset does not tie them', () => {
    const old: ChangeEvent = { ...configPush, timeNs: ns('2025-03-04T09:20:00.000Z') };
    const out = by(attribute([svc('checkout', { failing: true, errors: 30, onset: ONSET }), svc('catalog')], { ...none, edgesNow: [edge('checkout', 'catalog', 30)], events: [old] }));
    expect(out.checkout.explainedBy).toBeNull();
    expect(out.checkout.signals).toEqual(['its new failures are calls to catalog that fail (+30) while catalog shows no server errors: requests catalog rejects (client errors)']);
  });

  it('is blamed when two callers fail against it anew, with no change recorded', () => {
    const out = by(attribute([svc('checkout', { failing: true, errors: 30, score: 40 }), svc('frontend', { failing: true, errors: 50, score: 70 }), svc('catalog', { score: 0 })],
      { ...none, edgesNow: [edge('checkout', 'catalog', 30), edge('frontend', 'catalog', 50)] }));
    expect(out.catalog.score).toBe(71);
    expect(out.frontend.explainedBy).toBe('catalog');
    expect(out.checkout.explainedBy).toBe('catalog');
    expect(out.catalog.signals).toEqual(["rejects its callers' calls, client errors rather than server errors (failed calls from frontend (+50), checkout (+30)): its callers all fail against it"]);
  });

  it('a second caller that failed as much before does not count as failing against it', () => {
    const out = by(attribute([svc('checkout', { failing: true, errors: 30 }), svc('frontend'), svc('catalog')],
      { ...none, edgesNow: [edge('checkout', 'catalog', 30), edge('frontend', 'catalog', 5)], edgesPrev: [edge('frontend', 'catalog', 5)] }));
    expect(out.checkout.explainedBy).toBeNull();
  });
});

describe('a callee that sends no telemetry', () => {
  it('a peer never seen gets an entry of its own, ranked above its callers', () => {
    const out = attribute([svc('frontend', { failing: true, errors: 80, score: 90 }), svc('checkout', { failing: true, errors: 20, score: 30 })],
      { ...none, edgesNow: [edge('frontend', 'cart', 80, { kind: 'external' }), edge('checkout', 'cart', 20, { kind: 'external' })] });
    expect(out.map((c) => [c.service, c.explainedBy])).toEqual([['cart', null], ['frontend', 'cart'], ['checkout', 'cart']]);
    const cart = out[0];
    expect(cart).toMatchObject({ status: 'silent', sources: [], requests: 0, score: 91, basis: 'no telemetry of its own (a grpc peer its callers name)' });
    expect(cart.signals).toEqual(['sends no telemetry; calls to it fail anew from frontend (+80), checkout (+20): it is down, unreachable or not instrumented']);
    expect(out[1].signals).toEqual(['its new failures are calls to cart that fail (+80); cart sends no telemetry']);
  });

  it('a database or cache the caller names is its own dependency, not a silent service', () => {
    const out = attribute([svc('cart', { failing: true, errors: 80 })], { ...none, edgesNow: [edge('cart', 'redis', 80, { kind: 'external', protocol: 'sql' })] });
    expect(out.map((c) => c.service)).toEqual(['cart']);
    expect(out[0].explainedBy).toBeNull();
  });

  it('a peer whose failing calls are not most of the new failures is not blamed', () => {
    const out = attribute([svc('frontend', { failing: true, errors: 80 })], { ...none, edgesNow: [edge('frontend', 'cart', 39, { kind: 'external' })] });
    expect(out.map((c) => c.service)).toEqual(['frontend']);
  });

  it('a known service that went silent is blamed for the calls that fail', () => {
    const out = by(attribute([svc('frontend', { failing: true, errors: 80, score: 50 }), svc('cart', { requests: 0, score: 20, signals: ['no telemetry for 6.0 min'] })],
      { ...none, edgesNow: [edge('frontend', 'cart', 80)] }));
    expect(out.frontend.explainedBy).toBe('cart');
    expect(out.cart.score).toBe(51);
    expect(out.cart.signals).toEqual(['no telemetry for 6.0 min', 'sends no telemetry now; calls to it fail anew from frontend (+80): it is down, unreachable or not instrumented']);
  });
});

describe('a callee that went silent, and whose calls vanished with it', () => {
  const run = (nowCalls: number, calleeSignals: string[], prevCalls = 600) => by(attribute(
    [svc('rating', { failing: true, errors: 60, score: 80 }), svc('rank', { score: 20, signals: calleeSignals })],
    { ...none, edgesNow: nowCalls > 0 ? [edge('rating', 'rank', 0, { calls: nowCalls })] : [], edgesPrev: [edge('rating', 'rank', 0, { calls: prevCalls })] },
  ));

  it('the caller\'s calls to it all but stopped as the caller began failing: the silent callee explains it', () => {
    const out = run(80, ['no telemetry for 26.1 min']);
    expect(out.rating.explainedBy).toBe('rank');
    expect(out.rank.score).toBe(81);
    expect(out.rating.signals).toEqual(['its calls to rank all but stopped (600 -> 80) as it began failing; rank sends no telemetry now']);
    expect(run(0, ['no telemetry for 26.1 min']).rating.explainedBy).toBe('rank');
  });

  it('calls that went on, a callee still sending, or too few calls before explain nothing', () => {
    expect(run(300, ['no telemetry for 26.1 min']).rating.explainedBy).toBeNull();
    expect(run(80, []).rating.explainedBy).toBeNull();
    expect(run(5, ['no telemetry for 26.1 min'], 19).rating.explainedBy).toBeNull();
  });
});

describe('a circuit breaker failing fast after its callee failed', () => {
  const run = (calleeOnset: string | null) => by(attribute([svc('shipping', { failing: true, errors: 84, score: 160, onset: ONSET }), svc('quote', { failing: true, errors: 10, score: 20, onset: calleeOnset })],
    { ...none, edgesNow: [edge('shipping', 'quote', 10)] }));

  it('the callee that began failing first explains the caller though few calls reach it', () => {
    const out = run('2025-03-04T09:39:00.000Z');
    expect(out.shipping.explainedBy).toBe('quote');
    expect(out.quote.score).toBe(161);
    expect(out.shipping.signals[0]).toBe('its failures began as its calls to quote started failing (quote failing since ~09:39; +10 failed calls, fewer attempted: failing fast)');
  });

  it('within a minute counts as first; a callee that began later, or with no onset, does not', () => {
    expect(run('2025-03-04T09:41:00.000Z').shipping.explainedBy).toBe('quote');
    expect(run('2025-03-04T09:41:01.000Z').shipping.explainedBy).toBeNull();
    expect(run(null).shipping.explainedBy).toBeNull();
  });
});
