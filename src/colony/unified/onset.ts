import type { EventKind } from '../store/rows.js';
import type { MinuteRow } from '../store/queries/timeline.js';

/**
 * When did it start, and what changed just before (pure). The onset is the minute that best splits a
 * service's per-minute series into a calmer before and a worse after; a deploy or configuration change
 * of that service shortly before the onset is the likely trigger.
 */
export interface MinutePoint {
  /** Minutes since the start of the previous window. */
  minute: number;
  requests: number;
  errors: number;
  durationMs: number;
}

export type OnsetMetric = 'errors' | 'latency';

/**
 * The minute at which `metric` steps up most clearly, searched from `earliest` on; null when no split
 * shows an increase (a t statistic of at least 3 over the per-minute values).
 */
export function onsetMinute(points: readonly MinutePoint[], metric: OnsetMetric, earliest: number): number | null {
  const series = points
    .filter((p) => p.requests > 0)
    .sort((a, b) => a.minute - b.minute)
    .map((p) => ({ minute: p.minute, v: metric === 'errors' ? p.errors / p.requests : p.durationMs / p.requests }));
  let best: { minute: number; t: number } | null = null;
  for (let k = 2; k <= series.length - 2; k++) {
    if (series[k].minute < earliest) continue;
    const before = series.slice(0, k).map((s) => s.v);
    const after = series.slice(k).map((s) => s.v);
    const m0 = before.reduce((a, b) => a + b, 0) / before.length;
    const m1 = after.reduce((a, b) => a + b, 0) / after.length;
    const ss = [...before.map((v) => (v - m0) ** 2), ...after.map((v) => (v - m1) ** 2)].reduce((a, b) => a + b, 0);
    const sd = Math.sqrt(ss / Math.max(1, series.length - 2));
    const t = sd === 0 ? (m1 > m0 ? Infinity : 0) : (m1 - m0) / (sd * Math.sqrt(1 / before.length + 1 / after.length));
    if (t >= 3 && (best === null || t > best.t)) best = { minute: series[k].minute, t };
  }
  return best?.minute ?? null;
}

/** A service's per-minute series from the source that served the most requests (the summary's view of it). */
function minutePoints(rows: readonly MinuteRow[], service: string): MinutePoint[] {
  const bySource = new Map<string, MinutePoint[]>();
  for (const r of rows) {
    if (r.service !== service) continue;
    const list = bySource.get(r.source);
    if (list) list.push(r);
    else bySource.set(r.source, [r]);
  }
  let best: MinutePoint[] = [];
  for (const list of bySource.values()) if (list.reduce((s, p) => s + p.requests, 0) > best.reduce((s, p) => s + p.requests, 0)) best = list;
  return best;
}

const MIN_NS = 60_000_000_000n;

/**
 * When a service's change began, as coral_query_summary dates it: over the minute series of its
 * window and the one of the same length before (`rows`, minute 0 at `prevFromNs`), the onset of
 * `metric` searched from halfway through the window before; null when no minute splits it.
 * coral_query_timeseries dates its onset with this too, so the chart and the ranking agree.
 */
export function serviceOnsetNs(rows: readonly MinuteRow[], service: string, metric: OnsetMetric, windowSec: number, prevFromNs: bigint): bigint | null {
  const windowMinutes = Math.round(windowSec / 60);
  const minute = onsetMinute(minutePoints(rows, service), metric, Math.floor(windowMinutes / 2));
  return minute === null ? null : prevFromNs + BigInt(minute) * MIN_NS;
}

export interface ChangeEvent {
  timeNs: bigint;
  serviceName: string;
  kind: EventKind;
  title: string;
}

/** Kinds that change a service's behaviour (restarts and crashes are symptoms, scored with saturation). */
const TRIGGER_KINDS: ReadonlySet<EventKind> = new Set(['deploy', 'config_change']);
export const TRIGGER_BEFORE_NS = 10n * 60_000_000_000n;
export const TRIGGER_AFTER_NS = 2n * 60_000_000_000n;

/** The service's deploy or configuration change closest before its onset (up to 10 min before, 2 min after). */
export function triggeringEvent(events: readonly ChangeEvent[], service: string, onsetNs: bigint): ChangeEvent | null {
  let best: ChangeEvent | null = null;
  for (const e of events) {
    if (e.serviceName !== service || !TRIGGER_KINDS.has(e.kind)) continue;
    if (e.timeNs < onsetNs - TRIGGER_BEFORE_NS || e.timeNs > onsetNs + TRIGGER_AFTER_NS) continue;
    const d = (x: ChangeEvent) => (x.timeNs > onsetNs ? x.timeNs - onsetNs : onsetNs - x.timeNs);
    if (best === null || d(e) < d(best)) best = e;
  }
  return best;
}
