import { INSTANCE_KEYS, type BreakdownRow } from '../store/queries/breakdown.js';
import { NODE_KEYS } from '../store/queries/node-cpu.js';
import { type InstanceOutlier, type InstanceOutliers, instanceOutliers, outlierLine } from './instance-outliers.js';

/**
 * One bad instance among several (pure): a pod whose P95 or error rate its siblings do not share
 * barely moves the service's own figures (a slow pod of five takes a fifth of the calls or fewer),
 * so it is read per instance, from the breakdown's rows. Only what is new: an instance that stood
 * out as much in the previous window is not this incident.
 */
export interface InstanceFinding {
  signal: string;
  score: number;
  slower: boolean;
  failing: boolean;
  outliers: InstanceOutliers;
}

/** The keys the summary reads per service: the instance keys and the node. */
export const SUMMARY_INSTANCE_KEYS = [...new Set([...INSTANCE_KEYS, ...NODE_KEYS])];

const previous = (rows: readonly BreakdownRow[]) => rows.filter((r) => r.period === 0).map((r) => ({ ...r, period: 1 }));
const weight = (o: InstanceOutlier) => (o.slower && o.p95Ms !== null && o.othersP95Ms ? o.p95Ms / Math.max(o.othersP95Ms, 0.05) : 1);

/** Outliers of this window that were not (or were much milder) in the window before. */
export function newOutliers(rows: readonly BreakdownRow[], keys: readonly string[] = INSTANCE_KEYS): InstanceOutliers | null {
  const now = instanceOutliers(rows.filter((r) => r.period === 1), keys);
  if (!now || now.outliers.length === 0) return now;
  const before = instanceOutliers(previous(rows), [now.key]);
  const was = new Map((before?.outliers ?? []).map((o) => [o.value, o]));
  const outliers = now.outliers.filter((o) => {
    const b = was.get(o.value);
    return !b || (o.slower && !b.slower) || (o.failing && !b.failing) || weight(o) >= 1.5 * weight(b);
  });
  return { ...now, outliers };
}

export function instanceFinding(rows: readonly BreakdownRow[]): InstanceFinding | null {
  const o = newOutliers(rows);
  if (!o || o.outliers.length === 0) return null;
  // A third or more of the instances standing out is the service, read at service level.
  if (o.outliers.length * 3 > o.instances) return null;
  const slower = o.outliers.some((x) => x.slower);
  const failing = o.outliers.some((x) => x.failing);
  const latencyScore = slower ? 10 * Math.log2(Math.max(...o.outliers.map(weight))) : 0;
  const errorScore = failing ? Math.max(...o.outliers.map((x) => (x.errorRate - x.othersErrorRate) * 100)) : 0;
  const score = Math.max(latencyScore, errorScore) + 5;
  return { signal: `${outlierLine(o)}: apart from its siblings`, score, slower, failing, outliers: o };
}

/** The nodes on which this service's instances stand out (several services' on one node: a neighbour). */
export function slowNodes(rows: readonly BreakdownRow[]): string[] {
  const o = newOutliers(rows, NODE_KEYS);
  if (!o || o.outliers.length * 2 > o.instances) return [];
  return o.outliers.filter((x) => x.slower).map((x) => x.value);
}

/** The node every instance of the service ran on in the window, when there is exactly one. */
export function onlyNode(rows: readonly BreakdownRow[]): string | null {
  for (const key of NODE_KEYS) {
    const nodes = new Set(rows.filter((r) => r.key === key && r.period === 1).map((r) => r.value));
    if (nodes.size > 0) return nodes.size === 1 ? [...nodes][0] : null;
  }
  return null;
}
