import type { TimeRange } from '../../core/time.js';
import type { IngestBatch } from './rows.js';
import type { ColumnarBatch } from './columnar-batch.js';
import type { RedQuery, RedRow } from './queries/red.js';
import type { TraceSearch, TraceSearchResult, SpanRecord } from './queries/spans.js';
import type { LogQuery, LogQueryResult } from './queries/logs.js';
import type { EventOut, EventQuery } from './queries/events.js';
import type { ServiceHealth, ServiceInfo } from './queries/services.js';
import type { TopologyEdge } from './queries/topology.js';
import type { MetricInfo, MetricQuery } from './queries/metrics.js';
import type { HistogramOperationRow, SpanBucketRow } from './queries/operations.js';
import type { SpanP95Row } from './queries/span-percentiles.js';
import type { CallSpanRow } from './queries/calls.js';
import type { GaugePoint, MinuteRow } from './queries/timeline.js';
import type { MessagingDelayRow } from './queries/messaging.js';
import type { NodeCpuRow } from './queries/node-cpu.js';
import type { BreakdownQuery, BreakdownRow } from './queries/breakdown.js';
import type { LatencyStepRow, LogStepRow, MetricPointQuery, MetricPoints, SeriesFilter, SpanGroupRow, SpanSeriesQuery, SpanStepRow } from './queries/timeseries.js';

export interface StoreCounts {
  spans: number;
  numberPoints: number;
  histogramPoints: number;
  logs: number;
  events: number;
  services: number;
}

/**
 * What the tools, the agent and the console read: the same questions whichever backend answers
 * (the embedded DuckDB file, or ClickHouse tables written by the OpenTelemetry Collector).
 * Every query takes an explicit time range, so "now" can be shifted (demo replays).
 */
export interface ColonyReader {
  /** Where the data lives, for people: a file path or a URL without its password. */
  readonly path: string;
  /** What a person should know about how this colony answers (e.g. a slower fallback), if anything. */
  readonly notes?: readonly string[];
  redFromSpans(q: RedQuery): Promise<RedRow[]>;
  redFromHistograms(q: RedQuery): Promise<RedRow[]>;
  searchTraces(q: TraceSearch): Promise<TraceSearchResult>;
  getTrace(traceId: string): Promise<SpanRecord[]>;
  queryLogs(q: LogQuery): Promise<LogQueryResult>;
  queryEvents(q: EventQuery): Promise<EventOut[]>;
  listServices(): Promise<ServiceInfo[]>;
  serviceHealth(range: TimeRange, service?: string): Promise<ServiceHealth[]>;
  /** Every operation of every service, per latency bucket, from spans (the summary's per-operation view). */
  operationSpanBuckets(range: TimeRange): Promise<SpanBucketRow[]>;
  /** Exact P95 per operation and per service, from the spans operationSpanBuckets counts (what the summary shows as "spans"). */
  operationSpanP95(range: TimeRange): Promise<SpanP95Row[]>;
  /** Every operation of every service, from duration histograms. */
  operationHistograms(range: TimeRange): Promise<HistogramOperationRow[]>;
  /** Server, consumer and client spans of a stable sample of traces (self time, time in callees). */
  callSpans(range: TimeRange, maxTraces: number): Promise<CallSpanRow[]>;
  /** Per service, source and minute: requests, errors and summed duration (the onset's series); `service`: that service's rows only. */
  minuteSeries(range: TimeRange, service?: string): Promise<MinuteRow[]>;
  /** A service's spans per attribute value, failure and latency bucket (the breakdown's read). */
  breakdownRows(q: BreakdownQuery): Promise<BreakdownRow[]>;
  gaugePoints(range: TimeRange, names: readonly string[]): Promise<GaugePoint[]>;
  /** Spans per source, series and step of a grid: requests, errors, exact quantiles when asked (coral_query_timeseries). */
  spanSteps(q: SpanSeriesQuery): Promise<SpanStepRow[]>;
  /** Spans per source and value of an attribute over a grid: the largest values, before spanSteps keeps them apart. */
  spanGroups(q: SpanSeriesQuery & { groupBy: string }): Promise<SpanGroupRow[]>;
  /** Spans per source, step and log latency bucket (a latency heatmap's cells). */
  latencySteps(q: SpanSeriesQuery): Promise<LatencyStepRow[]>;
  /** Log records per level and step. */
  logSteps(q: SeriesFilter): Promise<LogStepRow[]>;
  /** A metric's points over a grid and the lookback before it, as stored (the steps are computed by unified/metric-steps.ts). */
  metricPoints(q: MetricPointQuery): Promise<MetricPoints>;
  listMetrics(q: MetricQuery): Promise<MetricInfo[]>;
  topology(range: TimeRange): Promise<TopologyEdge[]>;
  /** Per consumer service, how long messages waited between their producer span and its consumer span. */
  messagingDelays(range: TimeRange): Promise<MessagingDelayRow[]>;
  /** Per service and node, the mean CPU its processes on that node report. */
  nodeCpu(range: TimeRange): Promise<NodeCpuRow[]>;
  counts(): Promise<StoreCounts>;
  close(): Promise<void>;
}

/** Bulk, idempotent-where-the-backend-allows ingest of normalised OTLP. */
export interface ColonyWriter {
  /** Resolves once the rows are stored. */
  write(batch: IngestBatch): Promise<void>;
  /** The same for rows already in columnar form (encoded on a worker thread); not every backend takes them. */
  writeColumnar?(batch: ColumnarBatch | Promise<ColumnarBatch>): Promise<void>;
  /** Retention (retention-loop.ts): drops a bounded step of the data older than `cutoffNs`; the rows dropped. */
  dropBefore?(cutoffNs: bigint): Promise<number>;
  /** What this process's ingest added, where the backend knows: spans new to the colony (re-sends not counted), checkpoints made. */
  ingestTally?(): IngestTally;
}

export interface IngestTally {
  newSpans: number;
  checkpoints: number;
}

/** A colony that both answers and ingests (what `coral colony serve` and `coral demo load` need). */
export interface Colony extends ColonyReader, ColonyWriter {}
