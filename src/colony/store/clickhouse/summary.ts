import type { SummaryPointRow } from '../rows.js';
import type { ChClient } from './client.js';
import { SUMMARY_TABLE, qualified } from './ddl.js';
import { SERIES_KEY, sourceExpr } from './derived.js';
import { lit } from './sql.js';

/**
 * Summary points in the exporter's otel_metrics_summary (ddl.ts). Exponential histograms need no
 * table of their own: coral stores them as explicit bounds (otlp/exponential.ts) in the histogram
 * table, where every histogram reader merges them.
 */

/** Whether the summary table exists: a colony opened to read a Collector's tables may lack it. */
export async function hasSummaryTable(ch: ChClient, database: string): Promise<boolean> {
  const [r] = await ch.query<{ n: number }>(`SELECT toInt32(count()) AS n FROM system.tables WHERE database = ${lit(database)} AND name = ${lit(SUMMARY_TABLE)}`);
  return r.n > 0;
}

/** An insert row; `base` is the point columns every metric table shares (write.ts). */
export function summaryRow(r: SummaryPointRow, base: Record<string, unknown>): object {
  return { ...base, Count: r.count, Sum: r.sum, 'ValueAtQuantiles.Quantile': r.quantiles, 'ValueAtQuantiles.Value': r.quantileValues };
}

/**
 * Summary points by their DuckDB colony names, for listing (queries/metrics.ts). The Collector writes
 * quantiles in the order sent; coral sorts them at ingest, so they are sorted here too.
 */
export function summaryPoints(database: string, where: string): string {
  return `(SELECT ${sourceExpr('ResourceAttributes', 'ScopeName')} AS source, ${SERIES_KEY.expr} AS series_key,
      MetricName AS metric_name, MetricUnit AS unit, ServiceName AS service_name, toUnixTimestamp64Nano(TimeUnix) AS time_ns,
      arrayMap(p -> p.1, arraySort(arrayZip(ValueAtQuantiles.Quantile, ValueAtQuantiles.Value))) AS quantiles,
      arrayMap(p -> p.2, arraySort(arrayZip(ValueAtQuantiles.Quantile, ValueAtQuantiles.Value))) AS quantile_values
    FROM ${qualified(database, SUMMARY_TABLE)} WHERE ${where})`;
}
