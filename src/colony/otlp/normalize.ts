import { createHash } from 'node:crypto';
import { classifySource } from './classify.js';
import { int32Problem, timeProblem } from './bounds.js';
import {
  type Attributes,
  type AttrValue,
  type ExponentialPoint,
  type HistogramPoint,
  type LogsRequest,
  type MetricsRequest,
  type OtlpSpan,
  type SummaryPoint,
  type TracesRequest,
  SPAN_KIND_NAMES,
  STATUS_CODE_NAMES,
  TEMPORALITY_CUMULATIVE,
  TEMPORALITY_DELTA,
} from './model.js';
import { hotAttributes, spanHotAttributes } from './semconv.js';
import { exponentialProblem, exponentialToExplicit } from './exponential.js';
import {
  type EventKind,
  type HotAttributes,
  type IngestBatch,
  type LogLevel,
  type Source,
  type SummaryPointRow,
  type Temporality,
  emptyBatch,
} from '../store/rows.js';

/** What normalising one request produced: rows to store, and what was rejected and why. */
export interface Normalized {
  batch: IngestBatch;
  accepted: number;
  rejected: number;
  /** Distinct reasons, each with how many items it rejected. */
  reasons: Map<string, number>;
}

export const UNKNOWN_SERVICE = 'unknown_service';

/** The SDKs' name for telemetry without service.name (`unknown_service`, `unknown_service:<process>`): not one service. */
export const isDefaultServiceName = (name: string) => name === UNKNOWN_SERVICE || name.startsWith(`${UNKNOWN_SERVICE}:`);

function newResult(): Normalized {
  return { batch: emptyBatch(), accepted: 0, rejected: 0, reasons: new Map() };
}

function reject(n: Normalized, reason: string, count = 1): void {
  n.rejected += count;
  n.reasons.set(reason, (n.reasons.get(reason) ?? 0) + count);
}

export function rejectionMessage(n: Pick<Normalized, 'reasons'>): string {
  return [...n.reasons].map(([reason, count]) => `${count} ${reason}`).join('; ');
}

function serviceName(resource: Attributes): string {
  const v = resource['service.name'];
  return typeof v === 'string' && v !== '' ? v : UNKNOWN_SERVICE;
}

/**
 * JSON.stringify writes a lone UTF-16 surrogate (from "\ud800" in OTLP/JSON) as an escape, and
 * only then (a valid pair is written as is); DuckDB's JSON type refuses it, failing every query
 * that reads the row. Replaced by U+FFFD, as UTF-8 decoding of protobuf strings already does.
 * The lookbehind skips an escaped backslash followed by the letters "ud800".
 */
const LONE_SURROGATE = /(?<=(?:^|[^\\])(?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

function json(v: unknown): string {
  const s = JSON.stringify(v);
  return s.includes('\\ud') ? s.replace(LONE_SURROGATE, '\ufffd') : s;
}

/** The promoted integer columns (status codes) must fit the store's INTEGER. */
function hotProblem(hot: HotAttributes): string | null {
  return int32Problem('http status code (http.response.status_code)', hot.httpStatusCode) ?? int32Problem('rpc status code (rpc.grpc.status_code)', hot.rpcStatusCode);
}

/** Validation of one span; returns the reason it is rejected, or null. */
function spanProblem(s: OtlpSpan): string | null {
  if (s.traceId === null || s.traceId === '') return 'spans with an invalid trace_id (expected 32 hex characters, not all zero)';
  if (s.spanId === null || s.spanId === '') return 'spans with an invalid span_id (expected 16 hex characters, not all zero)';
  if (s.parentSpanId === null) return 'spans with an invalid parent_span_id (expected 16 hex characters or empty)';
  const time = timeProblem('start_time_unix_nano', s.startNs) ?? timeProblem('end_time_unix_nano', s.endNs);
  if (time) return `spans with ${time}`;
  if (s.startNs === 0n) return 'spans without a start time';
  if (s.endNs < s.startNs) return 'spans that end before they start';
  return null;
}

export function normalizeTraces(req: TracesRequest): Normalized {
  const n = newResult();
  for (const group of req) {
    const res = group.resource.attributes;
    const service = serviceName(res);
    const resourceJson = json(res);
    for (const { scope, items } of group.scopes) {
      const source = classifySource(res, scope.name);
      for (const s of items) {
        const problem = spanProblem(s);
        if (problem) {
          reject(n, problem);
          continue;
        }
        const hot = spanHotAttributes(s.attributes, s.name);
        const code = hotProblem(hot);
        if (code) {
          reject(n, `spans with ${code}`);
          continue;
        }
        const kind = SPAN_KIND_NAMES[s.kind] ?? 'UNSPECIFIED';
        // One literal naming every field: spreading `hot` in cost ~20 us per span, Object.assign ~1
        // (measured); a literal gets one fixed object shape.
        n.batch.spans.push({
          traceId: s.traceId as string,
          spanId: s.spanId as string,
          parentSpanId: s.parentSpanId as string,
          traceState: s.traceState,
          name: s.name,
          kind,
          serviceName: service,
          source,
          scopeName: scope.name,
          scopeVersion: scope.version,
          startNs: s.startNs,
          endNs: s.endNs,
          statusCode: STATUS_CODE_NAMES[s.statusCode] ?? 'UNSET',
          statusMessage: s.statusMessage,
          attributes: json(s.attributes),
          resourceAttributes: resourceJson,
          events: s.events.length === 0 ? '[]' : json(s.events.map((e) => ({ time_ns: e.timeNs.toString(), name: e.name, attributes: e.attributes }))),
          links: s.links.length === 0 ? '[]' : json(s.links),
          httpMethod: hot.httpMethod,
          httpRoute: hot.httpRoute,
          httpStatusCode: hot.httpStatusCode,
          rpcSystem: hot.rpcSystem,
          rpcService: hot.rpcService,
          rpcMethod: hot.rpcMethod,
          rpcStatusCode: hot.rpcStatusCode,
          dbSystem: hot.dbSystem,
          dbOperation: hot.dbOperation,
          dbTable: hot.dbTable,
          dbStatement: hot.dbStatement,
          peerService: hot.peerService,
          serverAddress: hot.serverAddress,
        });
        n.accepted++;
      }
    }
  }
  return n;
}

function temporalityName(t: number): Temporality {
  if (t === TEMPORALITY_DELTA) return 'delta';
  if (t === TEMPORALITY_CUMULATIVE) return 'cumulative';
  return 'unspecified';
}

function hashKey(parts: string[]): string {
  return createHash('md5').update(parts.join('\u0000')).digest('hex');
}

type PointBaseOf = (attributes: Attributes, startNs: bigint, timeNs: bigint) => Omit<SummaryPointRow, 'count' | 'sum' | 'quantiles' | 'quantileValues'>;

/** Rejects what a percentile reader would misread: a quantile outside [0, 1], non-finite values. */
function summaryRow(n: Normalized, base: PointBaseOf, p: SummaryPoint): boolean {
  const qs = [...p.quantiles].sort((a, b) => a.quantile - b.quantile);
  if (qs.some((q) => !(q.quantile >= 0 && q.quantile <= 1) || !Number.isFinite(q.value)) || !Number.isFinite(p.sum) || !(p.count >= 0)) {
    reject(n, 'summary points with a quantile outside [0, 1] or a non-finite value');
    return false;
  }
  n.batch.summaryPoints.push(Object.assign(base(p.attributes, p.startNs, p.timeNs), {
    count: p.count,
    sum: p.sum,
    quantiles: qs.map((q) => q.quantile),
    quantileValues: qs.map((q) => q.value),
  }));
  return true;
}

export function normalizeMetrics(req: MetricsRequest): Normalized {
  const n = newResult();
  for (const group of req) {
    const res = group.resource.attributes;
    const service = serviceName(res);
    const resourceJson = json(res);
    for (const { scope, items } of group.scopes) {
      const source: Source = classifySource(res, scope.name);
      for (const m of items) {
        const data = m.data;
        if (data === null) continue; // A metric with no data carries no points to lose.
        if (m.name === '') {
          reject(n, 'data points of a metric without a name', data.points.length);
          continue;
        }
        const base = (attributes: Attributes, startNs: bigint, timeNs: bigint) => {
          const attrsJson = json(attributes);
          return {
            seriesKey: hashKey([m.name, service, source, resourceJson, attrsJson]),
            metricName: m.name,
            description: m.description,
            unit: m.unit,
            serviceName: service,
            source,
            scopeName: scope.name,
            startNs,
            timeNs,
            attributes: attrsJson,
            resourceAttributes: resourceJson,
          };
        };
        for (const p of data.points) {
          const time = timeProblem('time_unix_nano', p.timeNs) ?? timeProblem('start_time_unix_nano', p.startNs);
          if (time || p.timeNs === 0n) {
            reject(n, `data points with ${time ?? 'a missing time_unix_nano'}`);
            continue;
          }
          if (data.type === 'histogram' || data.type === 'exponentialHistogram') {
            const kind = data.type === 'histogram' ? 'histogram' : 'exponential histogram';
            let buckets: { bounds: number[]; counts: number[] };
            if (data.type === 'histogram') {
              const hp = p as HistogramPoint;
              if (hp.bucketCounts.length > 0 && hp.bucketCounts.length !== hp.bounds.length + 1) {
                reject(n, 'histogram points whose bucket_counts length is not explicit_bounds length + 1');
                continue;
              }
              buckets = { bounds: hp.bounds, counts: hp.bucketCounts };
            } else {
              const problem = exponentialProblem(p as ExponentialPoint);
              if (problem) {
                reject(n, `exponential histogram points with ${problem}`);
                continue;
              }
              buckets = exponentialToExplicit(p as ExponentialPoint);
            }
            const hp = p as HistogramPoint | ExponentialPoint;
            const hot = hotAttributes(hp.attributes);
            const code = hotProblem(hot);
            if (code) {
              reject(n, `${kind} points with ${code}`);
              continue;
            }
            n.batch.histogramPoints.push(Object.assign(base(hp.attributes, hp.startNs, hp.timeNs), hot, {
              temporality: temporalityName(data.temporality),
              count: hp.count,
              sum: hp.sum,
              min: hp.min,
              max: hp.max,
              bounds: buckets.bounds,
              bucketCounts: buckets.counts,
            }));
          } else if (data.type === 'summary') {
            if (!summaryRow(n, base, p as SummaryPoint)) continue;
          } else {
            const np = p as { attributes: Attributes; startNs: bigint; timeNs: bigint; value: number };
            n.batch.numberPoints.push(Object.assign(base(np.attributes, np.startNs, np.timeNs), {
              metricType: data.type,
              temporality: data.type === 'sum' ? temporalityName(data.temporality) : 'unspecified',
              isMonotonic: data.type === 'sum' ? data.monotonic : false,
              value: np.value,
            }));
          }
          n.accepted++;
        }
      }
    }
  }
  return n;
}

/** OTLP severity numbers: 1-4 TRACE, 5-8 DEBUG, 9-12 INFO, 13-16 WARN, 17-20 ERROR, 21-24 FATAL. */
export function levelOf(severityNumber: number, severityText: string): LogLevel {
  if (severityNumber >= 1 && severityNumber <= 24) {
    return (['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const)[Math.floor((severityNumber - 1) / 4)];
  }
  const t = severityText.toLowerCase();
  if (t.startsWith('fatal') || t.startsWith('crit')) return 'fatal';
  if (t.startsWith('err')) return 'error';
  if (t.startsWith('warn')) return 'warn';
  if (t.startsWith('debug')) return 'debug';
  if (t.startsWith('trace')) return 'trace';
  return 'info';
}

export const EVENT_ALIASES: Record<string, EventKind> = {
  deploy: 'deploy',
  deployment: 'deploy',
  restart: 'restart',
  crash: 'crash',
  alert: 'alert',
  config_change: 'config_change',
  config: 'config_change',
};

/**
 * Operational events travel as log records named by `event_name` (or the `event.name` attribute):
 * `deploy`, `deployment`, `restart`, `crash`, `alert`, `config_change`, optionally prefixed `coral.`.
 */
/**
 * A log record's event name (OTLP's LogRecord.event_name) kept as the `event.name` attribute, the
 * convention's earlier spelling of the same thing: both backends store attributes, and neither
 * colony table has a column of its own for it. An attribute already sent wins.
 */
export function withEventName(eventName: string, attrs: Attributes): Attributes {
  return eventName === '' || attrs['event.name'] !== undefined ? attrs : { ...attrs, 'event.name': eventName };
}

export function eventKindOf(eventName: string, attrs: Attributes): EventKind | null {
  const raw = eventName !== '' ? eventName : typeof attrs['event.name'] === 'string' ? (attrs['event.name'] as string) : '';
  return EVENT_ALIASES[raw.toLowerCase().replace(/^coral\./, '')] ?? null;
}

function bodyText(body: AttrValue): string {
  if (body === null) return '';
  return typeof body === 'string' ? body : json(body);
}

export function normalizeLogs(req: LogsRequest): Normalized {
  const n = newResult();
  const seen = new Map<string, number>();
  for (const group of req) {
    const res = group.resource.attributes;
    const service = serviceName(res);
    const resourceJson = json(res);
    for (const { scope, items } of group.scopes) {
      const source = classifySource(res, scope.name);
      for (const l of items) {
        if (l.traceId === null || l.spanId === null) {
          reject(n, 'log records with an invalid trace_id or span_id (expected hex of 16 or 8 bytes)');
          continue;
        }
        const problem = timeProblem('time_unix_nano', l.timeNs) ?? timeProblem('observed_time_unix_nano', l.observedNs) ?? int32Problem('severity_number', l.severityNumber);
        if (problem) {
          reject(n, `log records with ${problem}`);
          continue;
        }
        // The spec lets time be unset; the observed time is then the best we have.
        const timeNs = l.timeNs > 0n ? l.timeNs : l.observedNs;
        if (timeNs === 0n) {
          reject(n, 'log records with neither time nor observed time');
          continue;
        }
        const body = bodyText(l.body);
        const attrsJson = json(withEventName(l.eventName, l.attributes));
        const contentId = hashKey([resourceJson, scope.name, timeNs.toString(), l.observedNs.toString(), String(l.severityNumber), l.severityText, body, attrsJson, l.traceId, l.spanId]);
        // Identical records in one request are distinct lines (a log printed twice); numbering them
        // by occurrence keeps each while a re-sent request still maps onto the same ids.
        const occurrence = seen.get(contentId) ?? 0;
        seen.set(contentId, occurrence + 1);
        const logId = occurrence === 0 ? contentId : hashKey([contentId, String(occurrence)]);
        n.batch.logs.push({
          logId,
          timeNs,
          observedNs: l.observedNs,
          serviceName: service,
          source,
          scopeName: scope.name,
          severityNumber: l.severityNumber,
          severityText: l.severityText,
          level: levelOf(l.severityNumber, l.severityText),
          body,
          traceId: l.traceId,
          spanId: l.spanId,
          attributes: attrsJson,
          resourceAttributes: resourceJson,
        });
        const kind = eventKindOf(l.eventName, l.attributes);
        if (kind) n.batch.events.push({ eventId: logId, timeNs, serviceName: service, kind, title: body, attributes: attrsJson });
        n.accepted++;
      }
    }
  }
  return n;
}
