import type { CallSpanRow } from '../store/queries/calls.js';

/**
 * Where errors start (pure), from the spans of a sample of traces: in each trace, the failing spans
 * with no failing span below them are where the failure began. A failing client call with no server
 * span under it began at the peer it named (a callee that never answered, or sends no telemetry); one
 * that names no peer tells nothing (eBPF client spans often name none, and their SDK twin's callee answered).
 * For each service that failed a request, how many of its failing traces began at each origin.
 */
export interface OriginCount {
  /** Sampled traces in which this service failed a request it served. */
  failingTraces: number;
  /** Per origin service (or peer), the traces among those whose failure began there. */
  origins: Map<string, number>;
}

export function errorOrigins(rows: readonly CallSpanRow[]): Map<string, OriginCount> {
  const out = new Map<string, OriginCount>();
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    if (i < rows.length && rows[i].traceId === rows[start].traceId) continue;
    countTrace(rows.slice(start, i), out);
    start = i;
  }
  return out;
}

function countTrace(spans: readonly CallSpanRow[], out: Map<string, OriginCount>): void {
  if (!spans.some((s) => s.error)) return;
  const children = new Map<string, CallSpanRow[]>();
  for (const s of spans) {
    const list = children.get(s.parentSpanId);
    if (list) list.push(s);
    else children.set(s.parentSpanId, [s]);
  }
  const failingBelow = new Map<string, boolean>();
  const below = (s: CallSpanRow, seen: Set<string>): boolean => {
    const known = failingBelow.get(s.spanId);
    if (known !== undefined) return known;
    if (seen.has(s.spanId)) return false;
    seen.add(s.spanId);
    const v = (children.get(s.spanId) ?? []).some((c) => c.error || below(c, seen));
    failingBelow.set(s.spanId, v);
    return v;
  };
  // A call answered under its twin from the other source: the callee's spans are in the trace.
  const servers = new Set(spans.filter((s) => s.kind !== 'CLIENT').map((s) => s.service));
  const origins = new Set<string>();
  for (const s of spans) {
    if (!s.error || below(s, new Set())) continue;
    const answered = (children.get(s.spanId) ?? []).some((c) => c.kind === 'SERVER' || c.kind === 'CONSUMER');
    if (s.kind !== 'CLIENT' || answered) origins.add(s.service);
    else if (s.peer && !servers.has(s.peer)) origins.add(s.peer);
  }
  const failed = new Set(spans.filter((s) => s.error && (s.kind === 'SERVER' || s.kind === 'CONSUMER')).map((s) => s.service));
  for (const service of failed) {
    const c = out.get(service) ?? { failingTraces: 0, origins: new Map<string, number>() };
    c.failingTraces++;
    for (const o of origins) c.origins.set(o, (c.origins.get(o) ?? 0) + 1);
    out.set(service, c);
  }
}

/**
 * The origin other than the service itself where most of its failing traces began, when it is most of
 * them and more of them than began in the service itself.
 */
export function elsewhereOrigin(service: string, counts: ReadonlyMap<string, OriginCount>, minTraces = 5, share = 0.5): { origin: string; traces: number; of: number } | null {
  const c = counts.get(service);
  if (!c || c.failingTraces < minTraces) return null;
  let best: [string, number] | null = null;
  for (const [o, n] of c.origins) if (o !== service && (!best || n > best[1] || (n === best[1] && o < best[0]))) best = [o, n];
  if (!best || best[1] < share * c.failingTraces || best[1] <= (c.origins.get(service) ?? 0)) return null;
  return { origin: best[0], traces: best[1], of: c.failingTraces };
}
