import { describe, expect, it } from 'vitest';
import { composeAnswer } from '../../../src/agent/providers/question-answer.js';
import { routeMatches, routeServer } from '../../../src/agent/providers/question-facts.js';
import type { Cited } from '../../../src/agent/providers/question-facts.js';
import { understand } from '../../../src/agent/understand/index.js';
import { resolvedBlock } from '../../../src/agent/understand/prompt-block.js';

const SERVICES = ['frontend-proxy', 'frontend', 'cart', 'checkout', 'currency', 'payment'];
const state = (service: string, o: Record<string, unknown> = {}) => ({
  service, status: 'healthy', signals: [], failing: false, slower: false, chronic: false, errorRate: 0, prevErrorRate: 0, p95Ms: 5, prevP95Ms: 5,
  ratePerSec: 1, prevRatePerSec: 1, requests: 1800, explainedBy: null, trigger: null, onset: null, ...o,
});
const currency = state('currency', { status: 'degraded', slower: true, signals: ['P95 4.75ms -> 452ms'], p95Ms: 452, prevP95Ms: 4.75, onset: '2026-01-01T11:40:00Z' });
const summary: Cited = {
  id: 's', name: 'coral_query_summary', ok: true, text: '', n: 1, args: { time_range: '30m' },
  structured: { services: [currency, state('frontend'), state('cart')], standOut: [currency], events: [], intake: null },
};
const answer = (q: string, results: Cited[] = [summary]) => composeAnswer({ u: understand(q, SERVICES), services: SERVICES, results, window: null, anchored: null });
const head = (q: string, results?: Cited[]) => answer(q, results).split('\n')[0];

describe('composeAnswer', () => {
  it('starts with one line that answers: yes/no with the reason, the match stated', () => {
    expect(head('is currency healthy?')).toBe('No: currency is slow: P95 4.75ms -> 452ms [1].');
    expect(head('is curency slow')).toMatch(/^Yes: currency \(you typed curency\) is slow/);
    expect(answer('is currency healthy?')).toMatch(/Window: the last 30 min/);
  });

  it('answers "is X the cause?" against what stands out first, in every yes/no form', () => {
    expect(head('is currency the problem?')).toMatch(/^Yes: currency stands out first: P95 4\.75ms -> 452ms \[1\]/);
    expect(head('is currency the problem compared to before?')).toMatch(/^Yes: currency stands out first/);
    expect(head('is cart the problem compared to before?')).toMatch(/^No: cart is healthy; what stands out is currency: P95 4\.75ms -> 452ms \[1\]/);
  });

  it('says an absent service is absent and answers about no other', () => {
    const a = answer('is the billing service down?');
    expect(a.split('\n')[0]).toMatch(/^There is no billing service in this colony; the closest names are .*The services are: frontend-proxy, frontend, cart/);
    expect(a.split('\n')[0]).not.toMatch(/^(Yes|No)/);
  });

  it('lists the services that are not healthy for a "which" question', () => {
    expect(head('which services are unhealthy?')).toBe('currency (slow: P95 4.75ms -> 452ms) [1].');
  });

  it('answers a route from the service that serves it, the callee behind the ingress', () => {
    const rows = (p95: number) => ({ sections: [{ rows: [{ source: 'otlp', protocol: 'http', httpMethod: 'GET', httpRoute: '/api/cart', rpcService: null, rpcMethod: null, dbOperation: null, dbTable: null, requests: 200, errors: 0, errorRate: 0, p50Ms: 3, p95Ms: p95, p99Ms: p95 + 1 }] }] });
    const proxy: Cited = { id: 'm1', name: 'coral_query_metrics', ok: true, text: '', n: 3, args: { service: 'frontend-proxy', protocol: 'http' }, structured: { service: 'frontend-proxy', ...rows(80) } };
    const fe: Cited = { id: 'm2', name: 'coral_query_metrics', ok: true, text: '', n: 4, args: { service: 'frontend', protocol: 'http' }, structured: { service: 'frontend', ...rows(74) } };
    const topo: Cited = { id: 't', name: 'coral_get_service_topology', ok: true, text: '', n: 2, args: {}, structured: { edges: [{ from: 'frontend-proxy', to: 'frontend', kind: 'service', protocol: 'http', calls: 1, errors: 0 }] } };
    expect(routeServer({ method: 'GET', path: '/api/cart' }, [proxy, fe], [{ from: 'frontend-proxy', to: 'frontend' }])?.service).toBe('frontend');
    expect(head('what is the latency of GET /api/cart?', [summary, topo, proxy, fe])).toMatch(/^GET \/api\/cart on frontend: P95 74ms/);
  });
});

describe('routeMatches', () => {
  it('matches a typed path against a template, parameters included', () => {
    expect(routeMatches('/api/products/[productId]', '/api/products/OLJCESPC7Z')).toBe(true);
    expect(routeMatches('/api/cart', '/api/cart/')).toBe(true);
    expect(routeMatches('/api/cart', '/api/checkout')).toBe(false);
  });
});

describe('resolvedBlock', () => {
  it('tells a model what the question names, resolved, and nothing when it names nothing', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const block = resolvedBlock(understand('is the billing service or curency slow in the last 15 minutes?', SERVICES), now);
    expect(block).toContain('Resolved from the question:');
    expect(block).toContain('- services: currency (typed "curency")');
    expect(block).toContain('- window: 11:45-12:00 UTC (15 min)');
    expect(block).toContain('- not in this colony: billing');
    expect(resolvedBlock(understand('hello there', SERVICES), now)).toBe('');
  });
});
