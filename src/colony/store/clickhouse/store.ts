import { dropOldPartition } from './retention.js';
import type { TimeRange } from '../../../core/time.js';
import { operationSpanP95 } from './read-percentiles.js';
import type { SpanP95Row } from '../queries/span-percentiles.js';
import type { IngestBatch } from '../rows.js';
import type { Colony, StoreCounts } from '../colony.js';
import type { RedQuery, RedRow } from '../queries/red.js';
import type { SpanRecord, TraceSearch, TraceSearchResult } from '../queries/spans.js';
import type { LogQuery, LogQueryResult } from '../queries/logs.js';
import type { EventOut, EventQuery } from '../queries/events.js';
import type { ServiceHealth, ServiceInfo } from '../queries/services.js';
import type { TopologyEdge } from '../queries/topology.js';
import type { MetricInfo, MetricQuery } from '../queries/metrics.js';
import type { HistogramOperationRow, SpanBucketRow } from '../queries/operations.js';
import type { CallSpanRow } from '../queries/calls.js';
import type { GaugePoint, MinuteRow } from '../queries/timeline.js';
import type { MessagingDelayRow } from '../queries/messaging.js';
import { messagingDelays } from './read-messaging.js';
import type { NodeCpuRow } from '../queries/node-cpu.js';
import { nodeCpu } from './read-node-cpu.js';
import { type ChClient, openChClient } from './client.js';
import { DEDUP_WINDOW, DEFAULT_TABLES, type TableNames, createTableStatements } from './ddl.js';
import { type ClickHouseTarget, describeTarget } from './url.js';
import type { ChSchema } from './views.js';
import { lit } from './sql.js';
import { writeBatch } from './write.js';
import { hasSummaryTable } from './summary.js';
import { ensureDerivedColumns } from './materialize.js';
import { ensureRegistry } from './registry.js';
import { ensureResources } from './resources.js';
import { ensureTraceProjection, projectionRefusal } from './trace-projection.js';
import { TraceReadCache } from './trace-read-cache.js';
import { TableRows } from './table-rows.js';
import { RedBatcher } from './batch.js';
import { TickBatcher } from './tick-batch.js';
import * as spans from './read-spans.js';
import * as other from './read-other.js';
import { breakdownRows } from './read-breakdown.js';
import type { BreakdownQuery, BreakdownRow } from '../queries/breakdown.js';
import type { LatencyStepRow, LogStepRow, MetricPointQuery, MetricPoints, SeriesFilter, SpanGroupRow, SpanSeriesQuery, SpanStepRow } from '../queries/timeseries.js';
import * as timeseries from './read-timeseries.js';

export interface ClickHouseOptions {
  target: ClickHouseTarget;
  password?: string;
  tables?: Partial<TableNames>;
  /** Create the database and the exporter's tables when missing (serving and loading do; reading does not need to); tables created so drop a re-sent insert. */
  create?: boolean;
  /** May coral add its MATERIALIZED derived columns to the tables (config clickhouse.materialize; default true)? */
  materialize?: boolean;
  /** May coral keep the spans in trace order too, a projection (config clickhouse.trace_projection; default: in a chdb directory only; needs materialize)? */
  traceProjection?: boolean;
  /** Span rows from which a trace read first asks the trace-id lookup table for time bounds (tests force either path). */
  traceBoundsMinRows?: number;
  /** Histogram points from which histogram reads skip the history before the series' last points (tests force either path). */
  skipHistoryMinRows?: number;
}

/**
 * Below this many histogram points (8 granules of the exporter's 8192) a histogram read passes over a
 * few granules, and first finding where the series' last points before the window lie costs a
 * second scan and its planning for little. Measured at 200,000 points (1,000 series over 200
 * minutes, the 1M-span bench): ~28% less CPU per histogram read.
 */
export const SKIP_HISTORY_MIN_ROWS = 8 * 8192;

/**
 * The colony on ClickHouse: reads the OpenTelemetry Collector exporter's tables, and writes OTLP
 * into them. Same answers as the DuckDB colony (the parity test holds both to it).
 */
export class ClickHouseStore implements Colony {
  private constructor(
    private readonly ch: ChClient,
    private readonly schema: ChSchema,
    readonly path: string,
    readonly notes: readonly string[],
    private readonly traceCache: TraceReadCache,
    private readonly tableRows: TableRows,
    private readonly skipHistoryMinRows: number,
  ) {}

  static async open(o: ClickHouseOptions): Promise<ClickHouseStore> {
    const tables = { ...DEFAULT_TABLES, ...o.tables };
    const ch = await openChClient(o.target, o.password);
    try {
      if (o.create) for (const sql of createTableStatements(o.target.database, tables, { dedupWindow: DEDUP_WINDOW })) await ch.command(sql);
      const [cols] = await ch.query<{ n: number }>(
        `SELECT toInt32(count()) AS n FROM system.columns WHERE database = ${lit(o.target.database)} AND table = ${lit(tables.logs)} AND name = 'EventName'`,
      );
      const logsHaveEventName = cols.n > 0;
      const m = await ensureDerivedColumns(ch, o.target.database, tables, logsHaveEventName, o.materialize ?? true);
      const reg = await ensureRegistry(ch, o.target.database, tables, logsHaveEventName, o.materialize ?? true);
      const res = await ensureResources(ch, o.target.database, tables, m.materialized.traces, o.materialize ?? true);
      const proj = await ensureTraceProjection(ch, o.target.database, tables, m.materialized.traces && res.table !== null,
        projectionRefusal({ materialize: o.materialize, traceProjection: o.traceProjection, embedded: o.target.kind === 'chdb' }));
      const schema: ChSchema = { database: o.target.database, tables, logsHaveEventName, materialized: m.materialized, registryTable: reg.table, resourceTable: res.table,
        summaries: await hasSummaryTable(ch, o.target.database) };
      const rows = new TableRows();
      return new ClickHouseStore(ch, schema, `clickhouse ${describeTarget(o.target)}`, [m.note, reg.note, res.note, proj.note], new TraceReadCache(o.traceBoundsMinRows, rows), rows,
        o.skipHistoryMinRows ?? SKIP_HISTORY_MIN_ROWS);
    } catch (err) {
      await ch.close();
      throw err;
    }
  }

  /** Whether the traces table exists (a read-only open checks it to say what is wrong). */
  async hasTraces(): Promise<boolean> {
    const [r] = await this.ch.query<{ n: number }>(
      `SELECT toInt32(count()) AS n FROM system.tables WHERE database = ${lit(this.schema.database)} AND name = ${lit(this.schema.tables.traces)}`,
    );
    return r.n > 0;
  }

  write(batch: IngestBatch): Promise<void> {
    return writeBatch(this.ch, this.schema, batch);
  }

  private readonly red = new RedBatcher((q, asked) => spans.red(this.ch, this.schema, q, asked, () => this.skipsHistory()));

  /** Whether histogram reads skip the points before the series' last ones (a large table: see SKIP_HISTORY_MIN_ROWS). */
  private skipsHistory(): Promise<boolean> {
    return this.tableRows.atLeast(this.ch, this.schema.database, this.schema.tables.histogram, this.skipHistoryMinRows);
  }

  /** Retention: drops one whole day's partition older than `cutoffNs` (retention.ts). */
  dropBefore(cutoffNs: bigint): Promise<number> {
    return dropOldPartition(this.ch, this.schema, cutoffNs);
  }

  redFromSpans(q: RedQuery): Promise<RedRow[]> {
    return this.red.ask('spans', q);
  }

  redFromHistograms(q: RedQuery): Promise<RedRow[]> {
    return this.red.ask('histograms', q);
  }

  searchTraces(q: TraceSearch): Promise<TraceSearchResult> {
    return spans.searchTraces(this.ch, this.schema, this.traceCache, q);
  }

  getTrace(traceId: string): Promise<SpanRecord[]> {
    return spans.getTrace(this.ch, this.schema, this.traceCache, traceId);
  }

  queryLogs(q: LogQuery): Promise<LogQueryResult> {
    return other.queryLogs(this.ch, this.schema, q);
  }

  queryEvents(q: EventQuery): Promise<EventOut[]> {
    return other.queryEvents(this.ch, this.schema, q);
  }

  listServices(): Promise<ServiceInfo[]> {
    return other.listServices(this.ch, this.schema);
  }

  serviceHealth(range: TimeRange, service?: string): Promise<ServiceHealth[]> {
    return other.serviceHealth(this.ch, this.schema, range, service);
  }

  private readonly spanOps = new TickBatcher((ranges: readonly TimeRange[]) => spans.operationSpanBuckets(this.ch, this.schema, ranges));

  operationSpanBuckets(range: TimeRange): Promise<SpanBucketRow[]> {
    return this.spanOps.ask(range);
  }

  operationSpanP95(range: TimeRange): Promise<SpanP95Row[]> {
    return operationSpanP95(this.ch, this.schema, range);
  }

  private readonly histogramOps = new TickBatcher(async (ranges: readonly TimeRange[]) => spans.operationHistograms(this.ch, this.schema, ranges, await this.skipsHistory()));

  operationHistograms(range: TimeRange): Promise<HistogramOperationRow[]> {
    return this.histogramOps.ask(range);
  }

  private readonly calls = new TickBatcher((ranges: readonly TimeRange[], maxTraces) => spans.callSpans(this.ch, this.schema, ranges, Number(maxTraces)));

  callSpans(range: TimeRange, maxTraces: number): Promise<CallSpanRow[]> {
    return this.calls.ask(range, String(maxTraces));
  }

  minuteSeries(range: TimeRange, service?: string): Promise<MinuteRow[]> {
    return spans.minuteSeries(this.ch, this.schema, range, service);
  }

  breakdownRows(q: BreakdownQuery): Promise<BreakdownRow[]> {
    return breakdownRows(this.ch, this.schema, q, this.traceCache);
  }

  gaugePoints(range: TimeRange, names: readonly string[]): Promise<GaugePoint[]> {
    return other.gaugePoints(this.ch, this.schema, range, names);
  }

  listMetrics(q: MetricQuery): Promise<MetricInfo[]> {
    return other.listMetrics(this.ch, this.schema, q);
  }

  spanSteps(q: SpanSeriesQuery): Promise<SpanStepRow[]> {
    return timeseries.spanSteps(this.ch, this.schema, q);
  }

  spanGroups(q: SpanSeriesQuery & { groupBy: string }): Promise<SpanGroupRow[]> {
    return timeseries.spanGroups(this.ch, this.schema, q);
  }

  latencySteps(q: SpanSeriesQuery): Promise<LatencyStepRow[]> {
    return timeseries.latencySteps(this.ch, this.schema, q);
  }

  logSteps(q: SeriesFilter): Promise<LogStepRow[]> {
    return timeseries.logSteps(this.ch, this.schema, q);
  }

  metricPoints(q: MetricPointQuery): Promise<MetricPoints> {
    return timeseries.metricPoints(this.ch, this.schema, q);
  }

  private readonly edges = new TickBatcher((ranges: readonly TimeRange[]) => other.topology(this.ch, this.schema, ranges));

  topology(range: TimeRange): Promise<TopologyEdge[]> {
    return this.edges.ask(range);
  }

  messagingDelays(range: TimeRange): Promise<MessagingDelayRow[]> {
    return messagingDelays(this.ch, this.schema, range);
  }

  nodeCpu(range: TimeRange): Promise<NodeCpuRow[]> {
    return nodeCpu(this.ch, this.schema, range);
  }

  counts(): Promise<StoreCounts> {
    return other.counts(this.ch, this.schema);
  }

  close(): Promise<void> {
    return this.ch.close();
  }
}
