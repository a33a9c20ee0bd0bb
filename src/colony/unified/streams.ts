import { formatCount, formatWait } from '../../core/format.js';
import { histogramQuantile } from './histogram.js';
import { type OperationView, viewLabel } from './operations.js';

/**
 * Long-lived streaming RPCs (flagd's EventStream, a Kubernetes Watch, a pub/sub Subscribe): a span
 * lasts as long as the client stays connected, tens of seconds to hours, which says nothing about
 * how fast the service answers. Mixed with the unary calls of the same service they make its P95
 * the stream's lifetime. The rule is the method's name, the one thing every source reports (eBPF
 * spans carry no streaming attribute, nor do most SDKs): `Stream` anywhere in it (EventStream,
 * StreamEvents, StreamingRecognize), or a name that starts with Watch or Subscribe. Case matters:
 * `Upstream` or `GetStreamer...` lowercase is no stream. HTTP operations are never streams by name.
 */
export const STREAM_METHOD = /Stream|^(?:Watch|Subscribe)/;

/** The same rule on the rpc_method column, for the store's SQL (both backends; LIKE is case-sensitive on both). */
export const STREAM_RPC_SQL = `coalesce(rpc_method LIKE '%Stream%' OR rpc_method LIKE 'Watch%' OR rpc_method LIKE 'Subscribe%', false)`;

export const isStreamMethod = (method: string | null | undefined): boolean => typeof method === 'string' && STREAM_METHOD.test(method);

/** An operation as the store names it: RPCs are `service/method`, without spaces; HTTP and SQL have spaces. */
export function isStreamOperation(operation: string): boolean {
  if (/\s/.test(operation)) return false;
  return isStreamMethod(operation.slice(operation.lastIndexOf('/') + 1));
}

/** Server operations split into calls (latency is theirs) and streams (shown apart, never blamed for latency). */
export function splitStreams(views: readonly OperationView[]): { calls: OperationView[]; streams: OperationView[] } {
  const calls: OperationView[] = [];
  const streams: OperationView[] = [];
  for (const v of views) (v.kind === 'server' && isStreamOperation(v.operation) ? streams : calls).push(v);
  return { calls, streams };
}

export interface StreamSummary {
  service: string;
  operation: string;
  /** e.g. "SDK spans". */
  basis: string;
  /** Streams that ended in the window (a span is written when its stream closes). */
  streams: number;
  /** How long half of them lasted, at most (ms); null when the histogram cannot say. */
  medianMs: number | null;
  /** How long the longest lasted, at least (ms): the top of its bucket, or its lower edge past the last bound. */
  longestMs: number | null;
}

export function summarizeStreams(streams: readonly OperationView[]): StreamSummary[] {
  return streams.map((v) => {
    let lastBucket = v.histogram.counts.length - 1;
    while (lastBucket >= 0 && v.histogram.counts[lastBucket] === 0) lastBucket--;
    const longestMs = lastBucket < 0 || v.histogram.bounds.length === 0 ? null : v.histogram.bounds[Math.min(lastBucket, v.histogram.bounds.length - 1)];
    return { service: v.service, operation: v.operation, basis: viewLabel(v), streams: v.requests, medianMs: histogramQuantile(0.5, v.histogram)?.value ?? null, longestMs };
  }).sort((a, b) => a.service.localeCompare(b.service) || a.operation.localeCompare(b.operation) || a.basis.localeCompare(b.basis));
}

/** "flagd flagd.evaluation.v1.Service/EventStream: 14 streams closed, half within 32.0s, longest ~48.0s (SDK spans)". */
export function streamLine(s: StreamSummary): string {
  const median = s.medianMs === null ? '' : `, half within ${formatWait(s.medianMs)}`;
  const longest = s.longestMs === null ? '' : `, longest ~${formatWait(s.longestMs)}`;
  return `${s.service} ${s.operation}: ${formatCount(s.streams)} stream${s.streams === 1 ? '' : 's'} closed${median}${longest} (${s.basis})`;
}
