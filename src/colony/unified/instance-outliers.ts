import { BREAKDOWN_KEYS, INSTANCE_KEYS, type BreakdownRow } from '../store/queries/breakdown.js';
import type { Source } from '../store/rows.js';
import { formatMs, formatPercent } from '../../core/format.js';
import { cellsOf, histogramOf, keyTotal, minus, p95Of } from './breakdown.js';
import { Z_ERRORS, latencyChange, proportionZ } from './stats.js';

/**
 * Which instances of a service (pods, instance ids, hosts) stand out from their siblings in the
 * window: a P95 or an error rate the others do not share. "1 of 5 pods: api-7f9c (P95 240ms vs 55ms)".
 * Pure; the rows are the breakdown's read (BreakdownRow, period 1).
 */

export interface InstanceOutlier {
  value: string;
  sources: Source[];
  spans: number;
  errorRate: number;
  othersErrorRate: number;
  p95Ms: number | null;
  othersP95Ms: number | null;
  /** P95 well above the siblings' (stats.ts latencyChange, the siblings as the yardstick). */
  slower: boolean;
  /** Error rate significantly and at least twice the siblings'. */
  failing: boolean;
}

export interface InstanceOutliers {
  /** The instance key compared (the first of INSTANCE_KEYS with two or more values). */
  key: string;
  /** "pod", "instance", "host". */
  label: string;
  /** Instances seen in the window. */
  instances: number;
  /** The instances that stand out, slowest or most failing first. */
  outliers: InstanceOutlier[];
}

/** Failures an instance needs before its error rate can stand out. */
const MIN_FAILURES = 5;

/** The first of `keys` with two or more values decides (by default the keys that name one process). */
export function instanceOutliers(rows: readonly BreakdownRow[], keys: readonly string[] = INSTANCE_KEYS): InstanceOutliers | null {
  const cells = cellsOf(rows);
  for (const key of keys) {
    const values = cells.byKey.get(key);
    if (!values || values.size < 2) continue;
    const all = keyTotal(values);
    const outliers: InstanceOutlier[] = [];
    for (const [value, v] of values) {
      const others = minus(all, v.now);
      const latency = latencyChange(histogramOf(v.now), histogramOf(others));
      const errorRate = v.now.errors / v.now.spans;
      const othersErrorRate = others.spans === 0 ? 0 : others.errors / others.spans;
      const failing = v.now.errors >= MIN_FAILURES && errorRate >= 2 * othersErrorRate
        && proportionZ(v.now.errors, v.now.spans, others.errors, others.spans) >= Z_ERRORS;
      if (!latency.slower && !failing) continue;
      outliers.push({
        value, sources: [...v.now.sources].sort(), spans: v.now.spans, errorRate, othersErrorRate,
        p95Ms: p95Of(v.now), othersP95Ms: p95Of(others), slower: latency.slower, failing,
      });
    }
    const weight = (o: InstanceOutlier) => (o.slower ? (o.p95Ms ?? 0) / Math.max(o.othersP95Ms ?? 0, 0.001) : 1) + (o.failing ? o.errorRate - o.othersErrorRate : 0);
    outliers.sort((a, b) => weight(b) - weight(a) || a.value.localeCompare(b.value));
    const label = BREAKDOWN_KEYS.find((k) => k.key === key)?.label ?? key;
    return { key, label, instances: values.size, outliers };
  }
  return null;
}

/** "1 of 5 pods: api-7f9c (P95 240ms vs 55ms)", or null when no instance stands out. */
export function outlierLine(o: InstanceOutliers): string | null {
  if (o.outliers.length === 0) return null;
  const each = o.outliers.map((x) => {
    const parts = [
      ...(x.slower && x.p95Ms !== null && x.othersP95Ms !== null ? [`P95 ${formatMs(x.p95Ms)} vs ${formatMs(x.othersP95Ms)}`] : []),
      ...(x.failing ? [`${formatPercent(x.errorRate)} errors vs ${formatPercent(x.othersErrorRate)}`] : []),
    ];
    return `${x.value} (${parts.join(', ')})`;
  });
  return `${o.outliers.length} of ${o.instances} ${o.label}s: ${each.join(', ')}`;
}
