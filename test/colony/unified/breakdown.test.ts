import { describe, expect, it } from 'vitest';
import { bucketOf, rankBreakdown } from '../../../src/colony/unified/breakdown.js';
import { instanceOutliers, outlierLine } from '../../../src/colony/unified/instance-outliers.js';
import type { BreakdownRow } from '../../../src/colony/store/queries/breakdown.js';
import type { Source } from '../../../src/colony/store/rows.js';

/** Bucket 20 holds (26.9, 32] ms, 23 (45.3, 53.8] ms, 32 (215.3, 256] ms. */
const FAST = 20;
const MID = 23;
const SLOW = 32;
const bound = (b: number) => 2 ** (b / 4);

type Spec = { key: string; value: string; bucket: number; spans: number; error?: boolean; period?: number; source?: Source };
const row = (s: Spec): BreakdownRow => ({ source: 'otlp', period: 1, error: false, ...s });
/** The rows of one group of spans: the totals row and one row per (key, value) it carries. */
function group(values: Record<string, string>, bucket: number, spans: number, o: Partial<Spec> = {}): BreakdownRow[] {
  return [row({ key: '', value: '*', bucket, spans, ...o }), ...Object.entries(values).map(([key, value]) => row({ key, value, bucket, spans, ...o }))];
}

describe('rankBreakdown', () => {
  // 300 spans, all in eu-west-1: pod-a 24 slow + 66 fast, pod-b 6 slow + 114 fast, pod-c 90 fast.
  const slowRows = [
    ...group({ 'k8s.pod.name': 'pod-a', 'cloud.region': 'eu' }, SLOW, 24),
    ...group({ 'k8s.pod.name': 'pod-a', 'cloud.region': 'eu' }, FAST, 66),
    ...group({ 'k8s.pod.name': 'pod-b', 'cloud.region': 'eu' }, SLOW, 6, { source: 'ebpf' }),
    ...group({ 'k8s.pod.name': 'pod-b', 'cloud.region': 'eu' }, FAST, 114),
    ...group({ 'k8s.pod.name': 'pod-c', 'cloud.region': 'eu' }, FAST, 90),
  ];

  it('slow: the spans in the P95 bucket and above against the rest; the pod holding most of them ranks, a uniform key does not', () => {
    const b = rankBreakdown(slowRows);
    expect(b.compare).toBe('slow');
    expect(b.auto).toBe(true);
    // P95: rank 285 of 300 falls in the slow bucket, 15 of its 30 spans in.
    expect(b.windowP95Ms).toBeCloseTo(bound(31) + (bound(32) - bound(31)) * (15 / 30), 9);
    expect(b.thresholdMs).toBeCloseTo(bound(31), 9);
    expect([b.anomalySpans, b.baselineSpans, b.windowSpans]).toEqual([30, 270, 300]);
    expect(b.keys.map((k) => k.key)).toEqual(['k8s.pod.name']);
    const [pod] = b.keys;
    expect(pod.values).toBe(3);
    expect(pod.top.map((v) => v.value)).toEqual(['pod-a']);
    const a = pod.top[0];
    expect(a.anomalyShare).toBeCloseTo(24 / 30, 12);
    expect(a.baselineShare).toBeCloseTo(66 / 270, 12);
    expect(pod.score).toBeCloseTo(24 / 30 - 66 / 270, 12);
    // Pooled z: p = 90/300; se = sqrt(p(1-p)(1/30 + 1/270)).
    expect(a.z).toBeCloseTo((24 / 30 - 66 / 270) / Math.sqrt(0.3 * 0.7 * (1 / 30 + 1 / 270)), 9);
    // pod-a's P95: rank 85.5 of 90, 19.5 of its 24 slow spans in; the others' (210 spans, 6 slow): rank 199.5 in the fast bucket.
    expect(a.p95Ms).toBeCloseTo(bound(31) + (bound(32) - bound(31)) * (19.5 / 24), 9);
    expect(a.othersP95Ms).toBeCloseTo(bound(19) + (bound(20) - bound(19)) * (199.5 / 204), 9);
    expect(a.sources).toEqual(['otlp']);
  });

  it('slow with a threshold asked: only spans in buckets wholly above it', () => {
    const b = rankBreakdown(slowRows, { compare: 'slow', thresholdMs: 100 });
    expect(bucketOf(100)).toBe(27);
    expect(b.thresholdMs).toBeCloseTo(bound(27), 9);
    expect(b.anomalySpans).toBe(30);
    expect(b.auto).toBe(false);
  });

  // 200 spans, 20 failing: 15 on /pay (of 50), 5 on /list (of 150); every failure is a 500.
  const errorRows = [
    ...group({ 'http.route': '/pay', 'http.response.status_code': '500' }, FAST, 15, { error: true }),
    ...group({ 'http.route': '/pay', 'http.response.status_code': '200' }, FAST, 35),
    ...group({ 'http.route': '/list', 'http.response.status_code': '500' }, FAST, 5, { error: true }),
    ...group({ 'http.route': '/list', 'http.response.status_code': '200' }, FAST, 145),
  ];

  it('errors (chosen when failures are material): the route holding the failures; status codes are left out', () => {
    const b = rankBreakdown(errorRows);
    expect(b.compare).toBe('errors');
    expect([b.anomalySpans, b.baselineSpans, b.windowErrors]).toEqual([20, 180, 20]);
    expect(b.thresholdMs).toBeNull();
    expect(b.keys.map((k) => k.key)).toEqual(['http.route']);
    const pay = b.keys[0].top[0];
    expect(pay.value).toBe('/pay');
    expect(pay.anomalyShare).toBeCloseTo(0.75, 12);
    expect(pay.baselineShare).toBeCloseTo(35 / 180, 12);
    expect(pay.errorRate).toBeCloseTo(0.3, 12);
    expect(pay.othersErrorRate).toBeCloseTo(5 / 150, 12);
  });

  it('a significant gap too small to matter does not rank: 56% of 2,000 failures against 50% of 18,000 (z ~5)', () => {
    const rows = [
      ...group({ 'http.route': '/a' }, FAST, 1120, { error: true }), ...group({ 'http.route': '/a' }, FAST, 9000),
      ...group({ 'http.route': '/b' }, FAST, 880, { error: true }), ...group({ 'http.route': '/b' }, FAST, 9000),
    ];
    expect(rankBreakdown(rows).keys).toEqual([]);
    expect(rankBreakdown(rows.map((r) => (r.value === '/a' && r.error ? { ...r, spans: 1300 } : r))).keys.map((k) => k.top[0].value)).toEqual(['/a']);
  });

  it('too few failures: auto compares slow spans instead', () => {
    const few = errorRows.map((r) => (r.error ? { ...r, spans: Math.min(r.spans, 4) } : r));
    expect(rankBreakdown(few).compare).toBe('slow');
  });

  it('window: the window against the one before; a value new in the window ranks', () => {
    const rows = [
      ...group({ 'service.version': '1.0' }, FAST, 100, { period: 0 }),
      ...group({ 'service.version': '1.0' }, FAST, 40),
      ...group({ 'service.version': '1.1' }, FAST, 60),
    ];
    const b = rankBreakdown(rows, { compare: 'window' });
    expect([b.anomalySpans, b.baselineSpans]).toEqual([100, 100]);
    expect(b.keys[0].top.map((v) => [v.value, v.anomalyShare, v.baselineShare])).toEqual([['1.1', 0.6, 0]]);
  });

  it('a gap within noise does not rank; nothing to compare gives no keys', () => {
    // 13 slow of 100: a holds 8 of them (62%) against 42 of the 87 others (48%): a 13-point gap, z 0.9.
    const rows = [
      ...group({ 'k8s.pod.name': 'a' }, SLOW, 8), ...group({ 'k8s.pod.name': 'a' }, FAST, 42),
      ...group({ 'k8s.pod.name': 'b' }, SLOW, 5), ...group({ 'k8s.pod.name': 'b' }, FAST, 45),
    ];
    const b = rankBreakdown(rows);
    expect([b.anomalySpans, b.baselineSpans]).toEqual([13, 87]);
    expect(b.keys).toEqual([]);
    const empty = rankBreakdown([]);
    expect([empty.keys, empty.windowSpans, empty.windowP95Ms, empty.thresholdMs]).toEqual([[], 0, null, null]);
  });
});

describe('instanceOutliers', () => {
  const pods = ['pod-a', 'pod-b', 'pod-c', 'pod-d', 'pod-e'];
  const rows = pods.flatMap((p) => group({ 'k8s.pod.name': p, 'service.instance.id': `${p}-1` }, p === 'pod-c' ? SLOW : MID, 60));

  it('one slow pod of five, against its siblings; the pod key is preferred over instance ids', () => {
    const o = instanceOutliers(rows);
    expect(o?.key).toBe('k8s.pod.name');
    expect(o?.instances).toBe(5);
    expect(o?.outliers.map((x) => [x.value, x.slower, x.failing, x.spans])).toEqual([['pod-c', true, false, 60]]);
    expect(o?.outliers[0].p95Ms).toBeCloseTo(bound(31) + (bound(32) - bound(31)) * 0.95, 9);
    expect(o?.outliers[0].othersP95Ms).toBeCloseTo(bound(22) + (bound(23) - bound(22)) * 0.95, 9);
    expect(outlierLine(o!)).toBe('1 of 5 pods: pod-c (P95 254ms vs 53ms)');
  });

  it('a failing pod: its error rate against its siblings\'', () => {
    const failing = [...pods.flatMap((p) => group({ 'k8s.pod.name': p }, MID, 50)), ...group({ 'k8s.pod.name': 'pod-b' }, MID, 10, { error: true })];
    const o = instanceOutliers(failing);
    expect(o?.outliers.map((x) => [x.value, x.slower, x.failing])).toEqual([['pod-b', false, true]]);
    expect(o?.outliers[0].errorRate).toBeCloseTo(10 / 60, 12);
    expect(outlierLine(o!)).toBe('1 of 5 pods: pod-b (16.7% errors vs 0.0%)');
  });

  it('a pod with only a few failures does not stand out, however high its rate', () => {
    const few = [...pods.flatMap((p) => group({ 'k8s.pod.name': p }, MID, 60)), ...group({ 'k8s.pod.name': 'pod-b' }, MID, 4, { error: true })];
    expect(instanceOutliers(few)?.outliers).toEqual([]);
  });

  it('alike pods: none stands out; one pod or no instance key: no answer', () => {
    const alike = pods.flatMap((p) => group({ 'k8s.pod.name': p }, MID, 60));
    expect(instanceOutliers(alike)?.outliers).toEqual([]);
    expect(outlierLine(instanceOutliers(alike)!)).toBeNull();
    expect(instanceOutliers(group({ 'k8s.pod.name': 'only' }, MID, 60))).toBeNull();
    expect(instanceOutliers(group({ 'http.route': '/x' }, MID, 60))).toBeNull();
  });

  it('the baseline window is not counted', () => {
    const o = instanceOutliers([...rows, ...group({ 'k8s.pod.name': 'pod-a' }, SLOW, 600, { period: 0 })]);
    expect(o?.outliers.map((x) => x.value)).toEqual(['pod-c']);
  });
});
