import type { Source } from '../store/rows.js';
import type { CallSpanRow } from '../store/queries/calls.js';
import { type Moments, addMoment, emptyMoments } from './stats.js';

/**
 * Where the time goes (pure), from the spans of a sample of traces: per service, its requests' durations,
 * its self (exclusive) time, which is the duration minus the time it waited on other services, and per
 * callee the time it waited there and the calls it gave up on (a deadline) while the callee still answered.
 */
export interface CalleeTime {
  /** Milliseconds waited on this callee, summed over the service's requests. */
  waitedMs: number;
  calls: number;
  failedCalls: number;
  /** Failed on the caller's side while the callee's own span did not fail: the caller stopped waiting. */
  abandoned: number;
}

export interface ServiceTime {
  service: string;
  source: Source;
  duration: Moments;
  self: Moments;
  callees: Map<string, CalleeTime>;
}

function unionLength(intervals: [number, number][]): number {
  if (intervals.length === 0) return 0;
  intervals.sort((a, b) => a[0] - b[0]);
  let totalMs = 0;
  let [s, e] = intervals[0];
  for (const [a, b] of intervals.slice(1)) {
    if (a > e) {
      totalMs += e - s;
      [s, e] = [a, b];
    } else e = Math.max(e, b);
  }
  return totalMs + (e - s);
}

/**
 * Self time per (service, source). Calls to `services` (those with telemetry of their own) are the
 * callees' time; calls to databases and other peers stay the caller's own work.
 */
export function serviceTimes(rows: readonly CallSpanRow[], services: ReadonlySet<string>): ServiceTime[] {
  const serverByParent = new Map<string, CallSpanRow>();
  const clientsByParent = new Map<string, CallSpanRow[]>();
  for (const r of rows) {
    if (r.kind === 'SERVER' || r.kind === 'CONSUMER') {
      if (r.parentSpanId) serverByParent.set(`${r.traceId}|${r.parentSpanId}`, r);
    } else {
      const key = `${r.traceId}|${r.parentSpanId}`;
      const list = clientsByParent.get(key);
      if (list) list.push(r);
      else clientsByParent.set(key, [r]);
    }
  }
  const out = new Map<string, ServiceTime>();
  for (const s of rows) {
    if (s.kind !== 'SERVER' && s.kind !== 'CONSUMER') continue;
    const id = `${s.service}|${s.source}`;
    let t = out.get(id);
    if (!t) {
      t = { service: s.service, source: s.source, duration: emptyMoments(), self: emptyMoments(), callees: new Map() };
      out.set(id, t);
    }
    const waits: [number, number][] = [];
    for (const c of clientsByParent.get(`${s.traceId}|${s.spanId}`) ?? []) {
      if (c.service !== s.service) continue;
      const answered = serverByParent.get(`${c.traceId}|${c.spanId}`);
      const callee = answered && answered.service !== s.service ? answered.service : c.peer;
      if (callee === null || callee === s.service || !services.has(callee)) continue;
      waits.push([c.startMs, c.startMs + c.durationMs]);
      let ct = t.callees.get(callee);
      if (!ct) {
        ct = { waitedMs: 0, calls: 0, failedCalls: 0, abandoned: 0 };
        t.callees.set(callee, ct);
      }
      ct.waitedMs += c.durationMs;
      ct.calls++;
      if (c.error) {
        ct.failedCalls++;
        if (answered && !answered.error) ct.abandoned++;
      }
    }
    addMoment(t.duration, s.durationMs);
    addMoment(t.self, Math.max(0, s.durationMs - unionLength(waits)));
  }
  return [...out.values()];
}

/** Per service, the source whose spans saw the most of its requests in the sample. */
export function bestTimes(times: readonly ServiceTime[]): Map<string, ServiceTime> {
  const out = new Map<string, ServiceTime>();
  for (const t of times) {
    const cur = out.get(t.service);
    if (!cur || t.duration.n > cur.duration.n) out.set(t.service, t);
  }
  return out;
}
