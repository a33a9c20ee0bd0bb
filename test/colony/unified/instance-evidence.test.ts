import { describe, expect, it } from 'vitest';
import type { BreakdownRow } from '../../../src/colony/store/queries/breakdown.js';
import { instanceFinding, newOutliers, onlyNode, slowNodes } from '../../../src/colony/unified/instance-evidence.js';
import { attributeNeighbours, findNeighbours } from '../../../src/colony/unified/neighbours.js';
import { compareServices, type ServiceChange } from '../../../src/colony/unified/summary.js';
import { health, input } from './summary-input.js';

/** One bad pod among five, read per instance, and a noisy neighbour read per node. */
const FAST = 20; // (26.9, 32] ms
const SLOW = 32; // (215.3, 256] ms

const row = (key: string, value: string, bucket: number, spans: number, period = 1, error = false): BreakdownRow => ({ key, value, source: 'otlp', period, error, bucket, spans });

/** `pods` pods of 100 spans each (spread over 3 buckets), the slow ones in the SLOW bucket; nodes node-<i % 2>. */
function fleet(pods: number, slow: readonly number[], period = 1): BreakdownRow[] {
  return Array.from({ length: pods }, (_, i) => [FAST - 1, FAST, FAST + 1].flatMap((b) => {
    const bucket = slow.includes(i) ? b - FAST + SLOW : b;
    return [row('k8s.pod.name', `pod-${i}`, bucket, 33, period), row('k8s.node.name', `node-${i % 2}`, bucket, 33, period)];
  })).flat();
}

describe('instanceFinding', () => {
  it('one slow pod of five: named with its P95 against its siblings\', scored on the ratio', () => {
    const f = instanceFinding([...fleet(5, [3]), ...fleet(5, [], 0)]);
    expect(f?.signal).toMatch(/^1 of 5 pods: pod-3 \(P95 2\d\dms vs 3\dms\): apart from its siblings$/);
    expect(f?.slower).toBe(true);
    expect(f?.score).toBeGreaterThan(30);
  });

  it('a pod as slow in the previous window is not new', () => {
    expect(instanceFinding([...fleet(5, [3]), ...fleet(5, [3], 0)])).toBeNull();
    expect(newOutliers([...fleet(5, [3]), ...fleet(5, [3], 0)])?.outliers).toEqual([]);
  });

  it('two slow pods of five are the service (a third or more), read at service level; none slow is nothing', () => {
    expect(instanceFinding([...fleet(5, [1, 3]), ...fleet(5, [], 0)])).toBeNull();
    expect(instanceFinding([...fleet(5, []), ...fleet(5, [], 0)])).toBeNull();
    expect(instanceFinding([])).toBeNull();
  });

  it('in the summary: scored where the service\'s own figures show nothing', () => {
    const rows = [...fleet(5, [3]), ...fleet(5, [], 0)];
    const out = compareServices(input({ health: [health('cart'), health('ad')], instances: new Map([['cart', rows]]) }));
    expect(out[0].service).toBe('cart');
    expect(out[0].slower).toBe(true);
    expect(out[0].signals[0]).toMatch(/^1 of 5 pods: pod-3/);
  });
});

describe('noisy neighbour', () => {
  const cpu = (service: string, node: string, value: number) => ({ service, node, cpu: value, points: 10 });

  it('slowNodes: the node whose pods stand out', () => {
    // Every pod on node-1 slow and none on node-0: node-1 stands out; slow pods on both nodes put neither apart.
    expect(slowNodes([...fleet(6, [1, 3, 5]), ...fleet(6, [], 0)])).toEqual(['node-1']);
    expect(slowNodes([...fleet(6, [0, 1]), ...fleet(6, [], 0)])).toEqual([]);
    const three = (period: number, slowNode: boolean) => ['node-0', 'node-1', 'node-2'].flatMap((n) => [row('k8s.node.name', n, slowNode && n === 'node-2' ? SLOW : FAST, 100, period)]);
    expect(slowNodes([...three(1, true), ...three(0, false)])).toEqual(['node-2']);
  });

  it('the service whose CPU rose on the node where others slowed is the neighbour; a rise elsewhere, or too small, is not', () => {
    const slow = new Map([['cart', ['node-2']], ['currency', ['node-2']]]);
    const found = findNeighbours({ slowNodes: slow, cpuNow: [cpu('batch', 'node-2', 0.7), cpu('ad', 'node-1', 0.9)], cpuPrev: [cpu('batch', 'node-2', 0.3), cpu('ad', 'node-1', 0.1)] });
    expect(found).toEqual([{ service: 'batch', node: 'node-2', before: 0.3, now: 0.7, victims: ['cart', 'currency'] }]);
    expect(findNeighbours({ slowNodes: slow, cpuNow: [cpu('batch', 'node-2', 0.5)], cpuPrev: [cpu('batch', 'node-2', 0.3)] })).toEqual([]);
    expect(findNeighbours({ slowNodes: slow, cpuNow: [cpu('batch', 'node-2', 0.15)], cpuPrev: [cpu('batch', 'node-2', 0.06)] })).toEqual([]);
    // The slow service's own CPU rising on the node makes it no neighbour of itself.
    expect(findNeighbours({ slowNodes: new Map([['cart', ['node-2']]]), cpuNow: [cpu('cart', 'node-2', 0.8)], cpuPrev: [cpu('cart', 'node-2', 0.2)] })).toEqual([]);
  });

  it('a service slower as a whole whose every instance runs on that node is a victim too', () => {
    const input = { slowNodes: new Map<string, string[]>(), onlyOn: new Map([['auth', 'node-2'], ['geo', 'node-1']]), cpuNow: [cpu('batch', 'node-2', 0.7)], cpuPrev: [cpu('batch', 'node-2', 0.3)] };
    expect(findNeighbours({ ...input, slower: new Set(['auth', 'geo']) })).toEqual([{ service: 'batch', node: 'node-2', before: 0.3, now: 0.7, victims: ['auth'] }]);
    expect(findNeighbours({ ...input, slower: new Set(['geo']) })).toEqual([]);
    expect(onlyNode([row('k8s.node.name', 'node-2', FAST, 5), row('host.name', 'h', FAST, 5)])).toBe('node-2');
    expect(onlyNode([row('k8s.node.name', 'node-2', FAST, 5), row('k8s.node.name', 'node-1', FAST, 5)])).toBeNull();
    expect(onlyNode([row('k8s.node.name', 'node-2', FAST, 5, 0)])).toBeNull();
  });

  it('a neighbour explained by waiting on a service it slows is not explained by it', () => {
    const c = (service: string, score: number, explainedBy: string | null = null): ServiceChange => ({
      service, sources: ['otlp'], status: '', ratePerSec: 1, prevRatePerSec: 1, requests: 100, errors: 0, prevRequests: 100, prevErrors: 0, errorRate: 0, prevErrorRate: 0,
      p95Ms: null, prevP95Ms: null, basis: '', signals: [], score, chronic: false, failing: false, slower: true, onset: null, trigger: null, explainedBy,
    });
    const out = attributeNeighbours([c('auth', 40), c('batch', 20, 'auth')], { slowNodes: new Map(), onlyOn: new Map([['auth', 'node-2']]), cpuNow: [cpu('batch', 'node-2', 0.7)], cpuPrev: [cpu('batch', 'node-2', 0.3)] });
    expect(out.map((x) => [x.service, x.score, x.explainedBy])).toEqual([['batch', 41, null], ['auth', 40, 'batch']]);
    expect(out[1].signals).toEqual(["slower on node node-2, its only node, where batch's CPU went 30.0% -> 70.0%"]);
  });

  it('ranks the neighbour above the services it slows, and says why on both sides', () => {
    const c = (service: string, score: number): ServiceChange => ({
      service, sources: ['otlp'], status: '', ratePerSec: 1, prevRatePerSec: 1, requests: 100, errors: 0, prevRequests: 100, prevErrors: 0, errorRate: 0, prevErrorRate: 0,
      p95Ms: null, prevP95Ms: null, basis: '', signals: [], score, chronic: false, failing: false, slower: score > 0, onset: null, trigger: null, explainedBy: null,
    });
    const out = attributeNeighbours([c('cart', 30), c('currency', 20), c('batch', 4)], { slowNodes: new Map([['cart', ['node-2']], ['currency', ['node-2']]]), cpuNow: [cpu('batch', 'node-2', 0.7)], cpuPrev: [cpu('batch', 'node-2', 0.3)] });
    expect(out.map((x) => [x.service, x.score, x.explainedBy])).toEqual([['batch', 31, null], ['cart', 30, 'batch'], ['currency', 20, 'batch']]);
    expect(out[0].signals[0]).toBe('its CPU on node node-2 30.0% -> 70.0%, and cart, currency slowed on that node only: a noisy neighbour');
    expect(out[1].signals).toEqual(["slower on node node-2 only, where batch's CPU went 30.0% -> 70.0%"]);
  });
});
