import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';
import { errorSpanSql } from '../../otlp/span-error.js';
import { STREAM_RPC_SQL } from '../../unified/streams.js';

/** Per service, source and minute of a window: served requests, errors and summed duration (for onset estimates). */
export interface MinuteRow {
  service: string;
  source: Source;
  /** Minutes since the window's start. */
  minute: number;
  requests: number;
  errors: number;
  durationMs: number;
}

export async function minuteSeries(db: Database, range: TimeRange, service?: string): Promise<MinuteRow[]> {
  // Streams close at any minute after any length: no onset to read in them (unified/streams.ts).
  const w = new Where().range('start_ns', range).add(`kind IN ('SERVER', 'CONSUMER') AND NOT ${STREAM_RPC_SQL}`);
  w.maybe(service, 'service_name = ?');
  const from = w.bind(range.fromNs);
  return db.query<MinuteRow>(
    `SELECT service_name AS service, source, ((start_ns - ${from}::BIGINT) // 60000000000)::INTEGER AS minute,
       count(*)::INTEGER AS requests, (count(*) FILTER (WHERE ${errorSpanSql()}))::INTEGER AS errors,
       (sum(duration_ns) / 1e6)::DOUBLE AS "durationMs"
     FROM otel_traces WHERE ${w.sql()} GROUP BY ALL ORDER BY service, source, minute`,
    w.params,
  );
}

export interface GaugePoint {
  service: string;
  metric: string;
  /** The point's series (metric, resource and attributes: one process, instance or partition). */
  series: string;
  timeNs: bigint;
  value: number;
}

/** Every point of the named gauges in a window (a few per minute per series), oldest first in each series. */
export async function gaugePoints(db: Database, range: TimeRange, names: readonly string[]): Promise<GaugePoint[]> {
  const w = new Where().range('time_ns', range).add(`metric_name IN (${names.map(() => '?').join(', ')})`, ...names);
  return db.query<GaugePoint>(
    `SELECT service_name AS service, metric_name AS metric, series_key AS series, time_ns AS "timeNs", value::DOUBLE AS value
     FROM otel_metrics_number WHERE ${w.sql()} ORDER BY service, metric, series, time_ns`,
    w.params,
  );
}
