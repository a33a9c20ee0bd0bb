import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';

export interface MetricInfo {
  metricName: string;
  unit: string;
  /** gauge, sum, histogram (exponential ones included: stored as explicit bounds) or summary. */
  type: string;
  source: Source;
  serviceName: string;
  points: number;
  series: number;
  /** Gauges and sums: the latest value and the window's range; histograms: none (a histogram has no single value). */
  last: number | null;
  /** Histograms: the smallest and largest observation the window's points report (null when none does). */
  min: number | null;
  max: number | null;
  /** Histograms: sum / count of the latest points. */
  avg: number | null;
  /** Histograms: observations and their sum in the latest point of each series (since the series' start, or its last interval for delta temporality). */
  count?: number | null;
  sum?: number | null;
  /**
   * Summaries of one series: the quantiles of its latest point, as the client computed them. Null
   * for other types and for summaries of several series, whose quantiles cannot be combined.
   */
  quantiles: SummaryQuantile[] | null;
}

export interface SummaryQuantile {
  quantile: number;
  value: number;
}

/** A listing row as both backends return it: the latest quantiles as two parallel arrays (JSON text from DuckDB), empty when none. */
export type MetricInfoRow = Omit<MetricInfo, 'quantiles'> & { quantileKeys: string | number[]; quantileValues: string | number[] };

const numbers = (v: string | number[]): number[] => (typeof v === 'string' ? (JSON.parse(v) as number[]) : v);

export function metricInfoOf(r: MetricInfoRow): MetricInfo {
  const { quantileKeys, quantileValues, ...rest } = r;
  const keys = numbers(quantileKeys);
  const values = numbers(quantileValues);
  return { ...rest, quantiles: r.type === 'summary' && keys.length > 0 ? keys.map((q, i) => ({ quantile: q, value: values[i] })) : null };
}

/**
 * A histogram point's min and max as both backends can tell them: the exporter's ClickHouse table
 * stores 0 for "not reported", so 0 and 0 is read as not reported on both.
 */
export const HISTOGRAM_RANGE = `CASE WHEN mn = 0 AND mx = 0 THEN NULL ELSE mn END, CASE WHEN mn = 0 AND mx = 0 THEN NULL ELSE mx END`;

export interface MetricQuery {
  range: TimeRange;
  service?: string;
  source?: Source;
  /** Exact metric names to keep. */
  names?: string[];
  /** Case-insensitive substring of the name. */
  nameContains?: string;
}

/** The metrics a colony holds in a window, one row per (service, source, metric). */
export async function listMetrics(db: Database, q: MetricQuery): Promise<MetricInfo[]> {
  const w = new Where().range('time_ns', q.range);
  w.maybe(q.service, 'service_name = ?');
  w.maybe(q.source, 'source = ?');
  if (q.names && q.names.length > 0) w.add(`metric_name IN (${q.names.map(() => '?').join(', ')})`, ...q.names);
  if (q.nameContains) w.add(`metric_name ILIKE ? ESCAPE '\\'`, `%${q.nameContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const where = w.sql();
  const rows = await db.query<MetricInfoRow>(
    `WITH h AS (
       SELECT metric_name, any_value(unit) AS unit, source, service_name, count(*) AS points,
         min(coalesce(min, 0)) AS mn, max(coalesce(max, 0)) AS mx, arg_max(count, time_ns) AS c, arg_max(coalesce(sum, 0), time_ns) AS s
       FROM otel_metrics_histogram WHERE ${where} GROUP BY metric_name, source, service_name, series_key
     ), g AS (
       SELECT metric_name, any_value(unit) AS unit, source, service_name, sum(points)::INTEGER AS points, count(*)::INTEGER AS series,
         min(mn) AS mn, max(mx) AS mx, sum(c)::DOUBLE AS c, sum(s)::DOUBLE AS s
       FROM h GROUP BY metric_name, source, service_name
     )
     SELECT metric_name AS "metricName", any_value(unit) AS unit, metric_type AS type, source, service_name AS "serviceName",
       count(*)::INTEGER AS points, count(DISTINCT series_key)::INTEGER AS series,
       arg_max(value, time_ns) AS last, min(value) AS min, max(value) AS max, avg(value) AS avg, NULL::DOUBLE AS count, NULL::DOUBLE AS sum,
       '[]' AS "quantileKeys", '[]' AS "quantileValues"
     FROM otel_metrics_number WHERE ${where} GROUP BY metric_name, metric_type, source, service_name
     UNION ALL
     SELECT metric_name, unit, 'histogram', source, service_name, points, series, NULL, ${HISTOGRAM_RANGE}, s / nullif(c, 0), c, s, '[]', '[]' FROM g
     UNION ALL
     SELECT metric_name, any_value(unit), 'summary', source, service_name, count(*)::INTEGER, count(DISTINCT series_key)::INTEGER,
       NULL, NULL, NULL, NULL, NULL, NULL,
       CASE WHEN count(DISTINCT series_key) = 1 THEN arg_max(quantiles, time_ns)::VARCHAR ELSE '[]' END,
       CASE WHEN count(DISTINCT series_key) = 1 THEN arg_max(quantile_values, time_ns)::VARCHAR ELSE '[]' END
     FROM otel_metrics_summary WHERE ${where} GROUP BY metric_name, source, service_name
     ORDER BY "serviceName", "metricName", source`,
    w.params,
  );
  return rows.map(metricInfoOf);
}
