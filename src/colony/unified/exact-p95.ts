import type { SpanP95Row } from '../store/queries/span-percentiles.js';
import type { Basis } from './operations.js';
import type { Source } from '../store/rows.js';

/**
 * The P95 a view shows (pure): a view from spans shows its spans' exact P95 (the log buckets it is
 * tested on are within a bucket's width, ~19%, and said "spans" they would not be the spans' number);
 * a view from histograms shows the histogram's.
 */
export type SpanP95Index = ReadonlyMap<string, number>;

const key = (service: string, source: Source, kind: 'server' | 'db', operation: string | null) => JSON.stringify([service, source, kind, operation]);

export function spanP95Index(rows: readonly SpanP95Row[]): SpanP95Index {
  return new Map(rows.map((r) => [key(r.service, r.source, r.kind, r.operation), r.p95Ms]));
}

/** `operation` null for the service-level view; `fromBuckets` when the view is a histogram's, or the spans' was not read. */
export function shownP95(
  index: SpanP95Index,
  v: { service: string; source: Source; basis: Basis; kind?: 'server' | 'db'; operation?: string },
  fromBuckets: number | null,
): number | null {
  if (v.basis !== 'spans' || fromBuckets === null) return fromBuckets;
  return index.get(key(v.service, v.source, v.kind ?? 'server', v.operation ?? null)) ?? fromBuckets;
}
