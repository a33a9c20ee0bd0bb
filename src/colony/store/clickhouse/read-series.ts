import type { TimeRange } from '../../../core/time.js';
import { HISTORY_LOOKBACK_NS, type HistogramSeries, type SeriesDelta, deltasInWindow } from '../queries/red.js';
import { type Conditions, instant, lit } from './sql.js';
import { type ChSchema, histogramAliases, table } from './views.js';

/** A query and how its rows become the answer. */
export interface Part<T> {
  sql: string;
  read(rows: readonly unknown[]): T;
}

/** Per-series attributes, taken from any point. */
const SERIES_FIELDS = ['service_name', 'source', 'metric_name', 'unit', 'temporality', 'http_route', 'http_method', 'http_status_code', 'rpc_service', 'rpc_method',
  'rpc_status_code', 'db_system', 'db_operation', 'db_table', 'error_type'] as const;

type SeriesFields = Pick<HistogramSeries, (typeof SERIES_FIELDS)[number]>;

/** One point of a series: its bucket counts, bounds, start and time (nanoseconds as text). */
type Snapshot = [number[], number[], string, string];

/** What one series holds in one segment of time (see seriesDeltas). */
interface ChSegmentRow {
  series_key: string;
  seg: number;
  /** SERIES_FIELDS in order. */
  fields: SeriesFields[keyof SeriesFields][];
  last: Snapshot;
  first: Snapshot;
  /** Delta points' counts and bounds; left empty in segment 0, which lies before every window. */
  window_points: [number[], number[]][];
}

/** Every boundary of the windows, once, in order. */
function boundaries(ranges: readonly TimeRange[]): bigint[] {
  return [...new Set(ranges.flatMap((r) => [r.fromNs, r.toNs]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The same per-series snapshots as the DuckDB query, for several windows from one pass over the
 * points (coral_query_summary asks for its window and the one before at once); the window arithmetic
 * is the shared deltasInWindow. The boundaries of the windows cut time into segments (segment k holds
 * the points after k boundaries, segment 0 those at or before the first); per series and segment:
 * its point count, last and first points and delta points. A window (b_i, b_j] is then segments i+1..j
 * and what precedes it segments 0..i. Straight over the table: ClickHouse's analysis of a query costs
 * about as much per aggregate, or per subquery, as a demo-sized table costs to read. (Both clients
 * quote 64-bit integers, so nanoseconds arrive as text.)
 * `skipHistory`: first find the earliest of the series' last points before the earliest window, and
 * read nothing older (no series' snapshot can be there, and no series is there alone): an argMax over
 * a tuple of arrays copies it at each newer point, and points arrive oldest first.
 */
export function seriesDeltas(s: ChSchema, outer: Conditions, ranges: readonly TimeRange[], skipHistory: boolean): Part<SeriesDelta[][]> {
  const bounds = boundaries(ranges);
  const snapshot = '(bucket_counts, bounds, start_ns, time_ns)';
  const where = `TimeUnix > ${instant(bounds[0] - HISTORY_LOOKBACK_NS)} AND TimeUnix <= ${instant(bounds[bounds.length - 1])} AND ${outer.sql()}`;
  const from = lit(bounds[0]);
  const history = skipHistory
    ? ` AND TimeUnix >= fromUnixTimestamp64Nano((SELECT coalesce(min(b), ${from}) FROM (SELECT maxIfOrNull(time_ns, time_ns <= ${from}) AS b FROM ${table(s, 'histogram')} WHERE ${where} GROUP BY series_key)))`
    : '';
  const seg = `toInt32(${bounds.map((b) => `(time_ns > ${lit(b)})`).join(' + ')})`;
  return {
    sql: `WITH ${histogramAliases(s, ['series_key', ...SERIES_FIELDS, 'bucket_counts', 'bounds', 'start_ns', 'time_ns'])}, ${seg} AS seg
     SELECT series_key, seg, any((${SERIES_FIELDS.join(', ')})) AS fields,
       argMax(${snapshot}, time_ns) AS last, argMin(${snapshot}, time_ns) AS first,
       groupArrayIf((bucket_counts, bounds), seg > 0 AND temporality = 'delta') AS window_points
     FROM ${table(s, 'histogram')} WHERE ${where}${history}
     GROUP BY series_key, seg`,
    read: (rows) => {
      const bySeries = new Map<string, ChSegmentRow[]>();
      for (const r of rows as ChSegmentRow[]) {
        const segs = bySeries.get(r.series_key);
        if (segs) segs.push(r);
        else bySeries.set(r.series_key, [r]);
      }
      for (const segs of bySeries.values()) segs.sort((a, b) => a.seg - b.seg);
      return ranges.map((range) => {
        const i = bounds.indexOf(range.fromNs);
        const j = bounds.indexOf(range.toNs);
        const series: HistogramSeries[] = [];
        for (const segs of bySeries.values()) {
          const one = inWindow(segs, i, j);
          if (one) series.push(one);
        }
        return deltasInWindow(series, range);
      });
    },
  };
}

/**
 * One series over the window (b_i, b_j] from its segments (in order), as the DuckDB query gives it;
 * none when it has no point up to the window's end. ClickHouse's aggregates give defaults, not NULL,
 * over no rows: the segments present say which snapshots exist.
 */
function inWindow(segs: readonly ChSegmentRow[], i: number, j: number): HistogramSeries | null {
  const upTo = segs.filter((x) => x.seg <= j);
  if (upTo.length === 0) return null;
  const inside = upTo.filter((x) => x.seg > i);
  const before = upTo.filter((x) => x.seg <= i);
  const fields = Object.fromEntries(SERIES_FIELDS.map((f, k) => [f, upTo[0].fields[k]])) as SeriesFields;
  const snap = (x: Snapshot | undefined) => (x
    ? { counts: x[0], bounds: x[1], start: BigInt(x[2]), time: BigInt(x[3]) }
    : { counts: null, bounds: null, start: null, time: null });
  const last = snap(inside.at(-1)?.last);
  const first = snap(inside[0]?.first);
  const prior = snap(before.at(-1)?.last);
  const window = inside.flatMap((x) => x.window_points);
  return {
    ...fields,
    series_key: upTo[0].series_key,
    last_counts: last.counts,
    last_bounds: last.bounds,
    last_start: last.start,
    last_time: last.time,
    first_counts: first.counts,
    first_bounds: first.bounds,
    first_start: first.start,
    first_time: first.time,
    before_counts: prior.counts,
    before_bounds: prior.bounds,
    before_start: prior.start,
    before_time: prior.time,
    window_counts: window.length > 0 ? window.map((p) => p[0]) : null,
    window_bounds: window.length > 0 ? window.map((p) => p[1]) : null,
  };
}
