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
  /** Gauges and sums: the latest value and the window's range; histograms: observations in the latest points. */
  last: number | null;
  min: number | null;
  max: number | null;
  avg: number | null;
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
  const none = `'[]', '[]'`;
  const rows = await db.query<MetricInfoRow>(
    `SELECT metric_name AS "metricName", any_value(unit) AS unit, metric_type AS type, source, service_name AS "serviceName",
       count(*)::INTEGER AS points, count(DISTINCT series_key)::INTEGER AS series,
       arg_max(value, time_ns) AS last, min(value) AS min, max(value) AS max, avg(value) AS avg, '[]' AS "quantileKeys", '[]' AS "quantileValues"
     FROM otel_metrics_number WHERE ${where} GROUP BY metric_name, metric_type, source, service_name
     UNION ALL
     SELECT metric_name, any_value(unit), 'histogram', source, service_name, count(*)::INTEGER, count(DISTINCT series_key)::INTEGER,
       NULL, NULL, NULL, NULL, ${none}
     FROM otel_metrics_histogram WHERE ${where} GROUP BY metric_name, source, service_name
     UNION ALL
     SELECT metric_name, any_value(unit), 'summary', source, service_name, count(*)::INTEGER, count(DISTINCT series_key)::INTEGER,
       NULL, NULL, NULL, NULL,
       CASE WHEN count(DISTINCT series_key) = 1 THEN arg_max(quantiles, time_ns)::VARCHAR ELSE '[]' END,
       CASE WHEN count(DISTINCT series_key) = 1 THEN arg_max(quantile_values, time_ns)::VARCHAR ELSE '[]' END
     FROM otel_metrics_summary WHERE ${where} GROUP BY metric_name, source, service_name
     ORDER BY "serviceName", "metricName", source`,
    w.params,
  );
  return rows.map(metricInfoOf);
}
