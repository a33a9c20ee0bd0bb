import { Database, type OpenOptions } from './db.js';
import { repairServiceRegistry } from './registry-repair.js';
import { StoreWriter } from './writer.js';
import { deleteOlderThan } from './retention.js';
import { diskFullWords } from './disk-fault.js';
import type { IngestBatch } from './rows.js';
import type { ColumnarBatch } from './columnar-batch.js';
import type { TimeRange } from '../../core/time.js';
import { type RedQuery, type RedRow, redFromHistograms, redFromSpans } from './queries/red.js';
import { type TraceSearch, type TraceSearchResult, type SpanRecord, getTrace, searchTraces } from './queries/spans.js';
import { type LogQuery, type LogQueryResult, queryLogs } from './queries/logs.js';
import { type EventOut, type EventQuery, queryEvents } from './queries/events.js';
import { type ServiceHealth, type ServiceInfo, listServices, serviceHealth } from './queries/services.js';
import { type TopologyEdge, topology } from './queries/topology.js';
import { type MetricInfo, type MetricQuery, listMetrics } from './queries/metrics.js';
import { type HistogramOperationRow, type SpanBucketRow, operationHistograms, operationSpanBuckets } from './queries/operations.js';
import { type SpanP95Row, operationSpanP95 } from './queries/span-percentiles.js';
import { type CallSpanRow, callSpans } from './queries/calls.js';
import { type MessagingDelayRow, messagingDelays } from './queries/messaging.js';
import { type NodeCpuRow, nodeCpu } from './queries/node-cpu.js';
import { type GaugePoint, type MinuteRow, gaugePoints, minuteSeries } from './queries/timeline.js';
import { type BreakdownQuery, type BreakdownRow, breakdownRows } from './queries/breakdown.js';
import * as timeseries from './queries/timeseries.js';

import type { Colony, IngestTally, StoreCounts } from './colony.js';

export type { StoreCounts } from './colony.js';

/**
 * The embedded DuckDB colony: bulk, idempotent ingest and the queries the MCP tools are built on.
 * Every query takes an explicit time range, so "now" can be shifted (demo replays).
 */
export class ColonyStore implements Colony {
  private constructor(
    readonly db: Database,
    readonly writer: StoreWriter,
  ) {}

  static async open(opts: OpenOptions): Promise<ColonyStore> {
    const db = await Database.open(opts);
    // A file only read keeps its registry as found (a crash's last second of sightings may trail).
    if (!db.readOnly) await repairServiceRegistry(db);
    return new ColonyStore(db, new StoreWriter(db));
  }

  get path(): string {
    return this.db.path;
  }

  /** What a person should know: the file as it was found (a crash's log, one cut short), and the disk full while it is. */
  get notes(): readonly string[] {
    const full = this.db.diskFull;
    return full ? [...this.db.notes, diskFullWords(full)] : this.db.notes;
  }

  /** Resolves once the rows are committed; concurrent writes share one transaction. */
  write(batch: IngestBatch): Promise<void> {
    return this.writer.write(batch);
  }

  /** A batch already in columnar form (from a decode worker), or on its way: stored as `write` stores rows. */
  writeColumnar(batch: ColumnarBatch | Promise<ColumnarBatch>): Promise<void> {
    return this.writer.writeColumnar(batch);
  }

  ingestTally(): IngestTally {
    return { newSpans: this.writer.spansStored, checkpoints: this.db.checkpoints };
  }

  /** Retention: deletes a bounded step of rows older than `cutoffNs` (retention.ts). */
  async dropBefore(cutoffNs: bigint): Promise<number> {
    // A delete is a write: while the disk is full it waits, as the exports do.
    if (this.db.diskFull) return 0;
    try {
      return await deleteOlderThan(this.db, cutoffNs);
    } catch (err) {
      if (await this.db.noteFault(err)) return 0;
      throw err;
    }
  }

  redFromSpans(q: RedQuery): Promise<RedRow[]> {
    return redFromSpans(this.db, q);
  }

  redFromHistograms(q: RedQuery): Promise<RedRow[]> {
    return redFromHistograms(this.db, q);
  }

  searchTraces(q: TraceSearch): Promise<TraceSearchResult> {
    return searchTraces(this.db, q);
  }

  getTrace(traceId: string): Promise<SpanRecord[]> {
    return getTrace(this.db, traceId);
  }

  queryLogs(q: LogQuery): Promise<LogQueryResult> {
    return queryLogs(this.db, q);
  }

  queryEvents(q: EventQuery): Promise<EventOut[]> {
    return queryEvents(this.db, q);
  }

  async listServices(): Promise<ServiceInfo[]> {
    await this.writer.syncRegistry();
    return listServices(this.db);
  }

  async serviceHealth(range: TimeRange, service?: string): Promise<ServiceHealth[]> {
    await this.writer.syncRegistry();
    return serviceHealth(this.db, range, service);
  }

  /** Every operation of every service, per latency bucket, from spans (the summary's per-operation view). */
  operationSpanBuckets(range: TimeRange): Promise<SpanBucketRow[]> {
    return operationSpanBuckets(this.db, range);
  }

  operationSpanP95(range: TimeRange): Promise<SpanP95Row[]> {
    return operationSpanP95(this.db, range);
  }

  /** Every operation of every service, from duration histograms. */
  operationHistograms(range: TimeRange): Promise<HistogramOperationRow[]> {
    return operationHistograms(this.db, range);
  }

  /** Server, consumer and client spans of a stable sample of traces (self time, time in callees). */
  callSpans(range: TimeRange, maxTraces: number): Promise<CallSpanRow[]> {
    return callSpans(this.db, range, maxTraces);
  }

  minuteSeries(range: TimeRange, service?: string): Promise<MinuteRow[]> {
    return minuteSeries(this.db, range, service);
  }

  breakdownRows(q: BreakdownQuery): Promise<BreakdownRow[]> {
    return breakdownRows(this.db, q);
  }

  gaugePoints(range: TimeRange, names: readonly string[]): Promise<GaugePoint[]> {
    return gaugePoints(this.db, range, names);
  }

  listMetrics(q: MetricQuery): Promise<MetricInfo[]> {
    return listMetrics(this.db, q);
  }

  spanSteps(q: timeseries.SpanSeriesQuery): Promise<timeseries.SpanStepRow[]> {
    return timeseries.spanSteps(this.db, q);
  }

  spanGroups(q: timeseries.SpanSeriesQuery & { groupBy: string }): Promise<timeseries.SpanGroupRow[]> {
    return timeseries.spanGroups(this.db, q);
  }

  latencySteps(q: timeseries.SpanSeriesQuery): Promise<timeseries.LatencyStepRow[]> {
    return timeseries.latencySteps(this.db, q);
  }

  logSteps(q: timeseries.SeriesFilter): Promise<timeseries.LogStepRow[]> {
    return timeseries.logSteps(this.db, q);
  }

  metricPoints(q: timeseries.MetricPointQuery): Promise<timeseries.MetricPoints> {
    return timeseries.metricPoints(this.db, q);
  }

  topology(range: TimeRange): Promise<TopologyEdge[]> {
    return topology(this.db, range);
  }

  messagingDelays(range: TimeRange): Promise<MessagingDelayRow[]> {
    return messagingDelays(this.db, range);
  }

  nodeCpu(range: TimeRange): Promise<NodeCpuRow[]> {
    return nodeCpu(this.db, range);
  }

  async counts(): Promise<StoreCounts> {
    await this.writer.syncRegistry();
    const [r] = await this.db.query<StoreCounts>(
      `SELECT (SELECT count(*) FROM otel_traces)::INTEGER AS spans,
         (SELECT count(*) FROM otel_metrics_number)::INTEGER AS "numberPoints",
         (SELECT count(*) FROM otel_metrics_histogram)::INTEGER AS "histogramPoints",
         (SELECT count(*) FROM otel_logs)::INTEGER AS logs,
         (SELECT count(*) FROM coral_events)::INTEGER AS events,
         (SELECT count(DISTINCT service_name) FROM coral_services)::INTEGER AS services`,
    );
    return r;
  }

  /**
   * Compresses what has been written to a compact in-memory colony (OpenOptions.compact), once the
   * writes have settled: a demo after its load. Best effort: a write that starts meanwhile (a
   * registry update) makes DuckDB refuse, and the data simply stays as it is.
   */
  async compact(): Promise<void> {
    await this.writer.flushed();
    await this.db.admin.run('CHECKPOINT').catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.writer.flushed();
    await this.db.close();
  }
}
