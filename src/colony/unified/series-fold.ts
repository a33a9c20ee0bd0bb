import type { Source } from '../store/rows.js';

/**
 * Which series a time series shows (pure): the source that answers, the groups kept apart and the
 * rest folded into "other", and where nothing was sent at all.
 */

/**
 * The source that saw the most (requests, records, points); on a tie the SDK's (OTLP), whose spans
 * carry the attributes a filter or a grouping asks about. Null when neither saw anything. The same
 * request seen by both (an eBPF twin) is counted once this way, never twice.
 */
export function chooseSource(totals: readonly { source: Source; samples: number }[]): Source | null {
  const sum = (s: Source) => totals.reduce((n, t) => n + (t.source === s ? t.samples : 0), 0);
  const ebpf = sum('ebpf');
  const otlp = sum('otlp');
  if (ebpf === 0 && otlp === 0) return null;
  return ebpf > otlp ? 'ebpf' : 'otlp';
}

export interface GroupTotal {
  /** The attribute's value; null for what carries no value of it. */
  group: string | null;
  samples: number;
}

export interface TopGroups {
  /** The groups shown apart, largest first (ties by value, no value last). */
  kept: (string | null)[];
  /** How many groups went into "other", and what they hold. */
  folded: number;
  foldedSamples: number;
}

/** Orders groups largest first, ties by value, the group without a value last among equals. */
export function byLargest<T extends { group: string | null }>(size: (x: T) => number): (a: T, b: T) => number {
  return (a, b) => size(b) - size(a) || (a.group === b.group ? 0 : a.group === null ? 1 : b.group === null ? -1 : a.group < b.group ? -1 : 1);
}

/**
 * The `limit` largest groups; the rest are folded. `distinct` is how many groups there are in all
 * (a read may list only the largest of a key with very many values).
 */
export function topGroups(totals: readonly GroupTotal[], limit: number, distinct = totals.length, allSamples = totals.reduce((n, t) => n + t.samples, 0)): TopGroups {
  const sorted = [...totals].sort(byLargest((t) => t.samples));
  const kept = sorted.slice(0, limit);
  const keptSamples = kept.reduce((n, t) => n + t.samples, 0);
  return { kept: kept.map((t) => t.group), folded: Math.max(0, distinct - kept.length), foldedSamples: allSamples - keptSamples };
}

/** A group as a series is labelled. */
export function groupLabel(group: string | null): string {
  return group ?? '(no value)';
}

export function otherLabel(folded: number): string {
  return `other (${folded} ${folded === 1 ? 'value' : 'values'})`;
}

/** A run of steps in which no series has a value: nothing was sent (first and last step, inclusive). */
export interface GapRun {
  first: number;
  last: number;
}

/** The runs of steps where every series is null; with no series at all, the whole grid is one. */
export function gapRuns(series: readonly (readonly (number | null)[])[], count: number): GapRun[] {
  const out: GapRun[] = [];
  let open: GapRun | null = null;
  for (let k = 0; k < count; k++) {
    const empty = series.every((s) => s[k] === null || s[k] === undefined);
    if (empty) {
      if (open) open.last = k;
      else out.push((open = { first: k, last: k }));
    } else open = null;
  }
  return out;
}
