import { ALL_SPANS, BREAKDOWN_KEYS, type BreakdownRow } from '../store/queries/breakdown.js';
import type { Source } from '../store/rows.js';
import { type BucketCounts, histogramQuantile } from './histogram.js';
import { LOG_BUCKETS_PER_DOUBLING, Z_SIGNIFICANT, fromLogBuckets, logBucketBound, proportionZ } from './stats.js';

/**
 * The breakdown (Honeycomb BubbleUp-style), pure: which attribute values are over-represented in the
 * anomalous spans (failing, slow, or the incident window) against the baseline. A value stands out
 * when its share of the anomaly exceeds its share of the baseline by a margin that matters and beyond
 * what the sample sizes allow; keys rank by their best value.
 */

export type Compare = 'errors' | 'slow' | 'window';
export const COMPARES: readonly Compare[] = ['errors', 'slow', 'window'];

/** `auto` compares failing spans when failures are material: at least this share of the window's spans... */
export const MATERIAL_ERROR_RATE = 0.01;
/** ...and at least this many of them. */
export const MATERIAL_ERRORS = 10;
/** A value's share of the anomaly must exceed its share of the baseline by this much (10 points) to rank. */
export const MIN_SHARE_GAP = 0.1;
/** Keys the `errors` comparison leaves out: failing spans carry failing status codes by definition. */
const TAUTOLOGICAL_FOR_ERRORS = new Set(['http.response.status_code', 'rpc.grpc.status_code']);

/** Spans of one (key, value) in one period, per failure and latency bucket. */
export interface Cell {
  spans: number;
  errors: number;
  /** Spans per log bucket, errors included. */
  buckets: Map<number, number>;
  sources: Set<Source>;
}

const emptyCell = (): Cell => ({ spans: 0, errors: 0, buckets: new Map(), sources: new Set() });

function addTo(c: Cell, r: BreakdownRow): void {
  c.spans += r.spans;
  if (r.error) c.errors += r.spans;
  c.buckets.set(r.bucket, (c.buckets.get(r.bucket) ?? 0) + r.spans);
  c.sources.add(r.source);
}

export function histogramOf(c: Cell): BucketCounts {
  return fromLogBuckets([...c.buckets].map(([bucket, count]) => ({ bucket, count })));
}

export function p95Of(c: Cell): number | null {
  return c.spans === 0 ? null : histogramQuantile(0.95, histogramOf(c))?.value ?? null;
}

/** A cell minus another (the value's siblings: the key's spans without the value's). */
export function minus(a: Cell, b: Cell): Cell {
  const buckets = new Map<number, number>();
  for (const [k, n] of a.buckets) {
    const left = n - (b.buckets.get(k) ?? 0);
    if (left > 0) buckets.set(k, left);
  }
  return { spans: a.spans - b.spans, errors: a.errors - b.errors, buckets, sources: a.sources };
}

/** The rows' cells: per key, per value, the window's (period 1) and the baseline window's (period 0). */
export interface Cells {
  /** key -> value -> the window's and the baseline window's spans by failure and bucket; the rows kept, each comparison sides them its own way. */
  byKey: Map<string, Map<string, { rows: BreakdownRow[]; now: Cell; before: Cell }>>;
}

export function cellsOf(rows: readonly BreakdownRow[]): Cells {
  const byKey: Cells['byKey'] = new Map();
  for (const r of rows) {
    let values = byKey.get(r.key);
    if (!values) byKey.set(r.key, (values = new Map()));
    let v = values.get(r.value);
    if (!v) values.set(r.value, (v = { rows: [], now: emptyCell(), before: emptyCell() }));
    v.rows.push(r);
    addTo(r.period === 1 ? v.now : v.before, r);
  }
  return { byKey };
}

/** Sums the cells of all values of a key (what the key's siblings are taken from). */
export function keyTotal(values: Map<string, { now: Cell }>): Cell {
  const t = emptyCell();
  for (const { now } of values.values()) {
    t.spans += now.spans;
    t.errors += now.errors;
    for (const [k, n] of now.buckets) t.buckets.set(k, (t.buckets.get(k) ?? 0) + n);
    for (const s of now.sources) t.sources.add(s);
  }
  return t;
}

/** The log bucket holding `ms` (stats.ts: bucket i holds (2^((i-1)/4), 2^(i/4)] ms). */
export function bucketOf(ms: number): number {
  return Math.ceil(Math.log2(Math.max(ms, 0.001)) * LOG_BUCKETS_PER_DOUBLING);
}

export interface ValueStat {
  value: string;
  /** Which sources' spans carried it (eBPF from Beyla, OTLP from the SDK). */
  sources: Source[];
  /** Spans with the value in the anomaly and in the baseline. */
  anomaly: number;
  baseline: number;
  anomalyShare: number;
  baselineShare: number;
  /** Two-proportion z of the shares. */
  z: number;
  /** The value's spans in the window, their failures and P95, against the key's other values there. */
  spans: number;
  errorRate: number;
  othersErrorRate: number | null;
  p95Ms: number | null;
  othersP95Ms: number | null;
}

export interface KeyStat {
  key: string;
  label: string;
  scope: 'resource' | 'span';
  /** Distinct values in the window (at most MAX_VALUES_PER_KEY are read). */
  values: number;
  /** The best value's share gap. */
  score: number;
  top: ValueStat[];
}

export interface Breakdown {
  compare: Compare;
  /** The comparison was chosen (auto) rather than asked. */
  auto: boolean;
  /** `slow`: spans slower than this (a log-bucket bound near the window's P95, or the threshold asked). */
  thresholdMs: number | null;
  windowSpans: number;
  windowErrors: number;
  windowP95Ms: number | null;
  anomalySpans: number;
  baselineSpans: number;
  keys: KeyStat[];
}

export interface BreakdownOptions {
  /** Undefined: `errors` when failures are material, else `slow`. */
  compare?: Compare;
  thresholdMs?: number;
  maxKeys?: number;
  maxValues?: number;
}

type Side = 'anomaly' | 'baseline' | null;

/** Which side of the comparison a row's spans fall on. */
function classifier(compare: Compare, slowAbove: number): (r: BreakdownRow) => Side {
  switch (compare) {
    case 'window':
      return (r) => (r.period === 1 ? 'anomaly' : 'baseline');
    case 'errors':
      return (r) => (r.period !== 1 ? null : r.error ? 'anomaly' : 'baseline');
    case 'slow':
      return (r) => (r.period !== 1 ? null : r.bucket > slowAbove ? 'anomaly' : 'baseline');
  }
}

function sides(rows: readonly BreakdownRow[], side: (r: BreakdownRow) => Side): { anomaly: number; baseline: number } {
  const out = { anomaly: 0, baseline: 0 };
  for (const r of rows) {
    const s = side(r);
    if (s) out[s] += r.spans;
  }
  return out;
}

/** Ranks the keys whose values concentrate in the anomaly. */
export function rankBreakdown(rows: readonly BreakdownRow[], o: BreakdownOptions = {}): Breakdown {
  const cells = cellsOf(rows);
  const all = cells.byKey.get(ALL_SPANS)?.get('*');
  const window = all?.now ?? emptyCell();
  const windowP95Ms = p95Of(window);
  const compare = o.compare ?? (window.errors >= MATERIAL_ERRORS && window.errors >= MATERIAL_ERROR_RATE * window.spans ? 'errors' : 'slow');
  // Slow: the bucket holding the P95 and above (at least 5% of the spans), or above the threshold asked.
  const slowAbove = o.thresholdMs !== undefined ? bucketOf(o.thresholdMs) : windowP95Ms === null ? Infinity : bucketOf(windowP95Ms) - 1;
  const side = classifier(compare, slowAbove);
  const totals = sides(all?.rows ?? [], side);
  const keys: KeyStat[] = [];
  for (const def of BREAKDOWN_KEYS) {
    const values = cells.byKey.get(def.key);
    if (!values || (compare === 'errors' && TAUTOLOGICAL_FOR_ERRORS.has(def.key))) continue;
    const total = keyTotal(values);
    const stats: ValueStat[] = [];
    for (const [value, v] of values) {
      const n = sides(v.rows, side);
      const anomalyShare = totals.anomaly === 0 ? 0 : n.anomaly / totals.anomaly;
      const baselineShare = totals.baseline === 0 ? 0 : n.baseline / totals.baseline;
      const others = minus(total, v.now);
      stats.push({
        value, sources: [...new Set([...v.now.sources, ...v.before.sources])].sort(),
        anomaly: n.anomaly, baseline: n.baseline, anomalyShare, baselineShare, z: proportionZ(n.anomaly, totals.anomaly, n.baseline, totals.baseline),
        spans: v.now.spans, errorRate: v.now.spans === 0 ? 0 : v.now.errors / v.now.spans,
        othersErrorRate: others.spans === 0 ? null : others.errors / others.spans, p95Ms: p95Of(v.now), othersP95Ms: p95Of(others),
      });
    }
    const standing = stats
      .filter((s) => s.z >= Z_SIGNIFICANT && s.anomalyShare - s.baselineShare >= MIN_SHARE_GAP)
      .sort((a, b) => b.anomalyShare - b.baselineShare - (a.anomalyShare - a.baselineShare) || b.z - a.z || a.value.localeCompare(b.value));
    if (standing.length === 0) continue;
    const present = [...values.values()].filter((v) => v.now.spans > 0).length;
    keys.push({
      key: def.key, label: def.label, scope: def.scope, values: present,
      score: standing[0].anomalyShare - standing[0].baselineShare, top: standing.slice(0, o.maxValues ?? 3),
    });
  }
  // Stable on ties: BREAKDOWN_KEYS order (resources first) decides.
  keys.sort((a, b) => b.score - a.score);
  return {
    compare, auto: o.compare === undefined, thresholdMs: compare === 'slow' && Number.isFinite(slowAbove) ? logBucketBound(slowAbove) : null,
    windowSpans: window.spans, windowErrors: window.errors, windowP95Ms, anomalySpans: totals.anomaly, baselineSpans: totals.baseline,
    keys: keys.slice(0, o.maxKeys ?? 8),
  };
}
