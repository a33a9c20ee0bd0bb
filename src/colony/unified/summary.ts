import { formatCount, formatMs, formatPercent } from '../../core/format.js';
import { nsToIso } from '../../core/time.js';
import type { ServiceHealth } from '../store/queries/services.js';
import type { GaugePoint, MinuteRow } from '../store/queries/timeline.js';
import { type OperationChange, type OperationView, type ServiceView, bestViews, compareOperations, errorChange, serviceViews, viewLabel } from './operations.js';
import { type ChangeEvent, serviceOnsetNs, triggeringEvent } from './onset.js';
import { saturation } from './saturation.js';
import { isDefaultServiceName } from '../otlp/normalize.js';
import { type SpanP95Index, shownP95, spanP95Index } from './exact-p95.js';
import type { SpanP95Row } from '../store/queries/span-percentiles.js';
import { backlogSignal, delayChange } from './messaging-lag.js';
import type { MessagingDelayRow } from '../store/queries/messaging.js';
import type { BreakdownRow } from '../store/queries/breakdown.js';
import { instanceFinding } from './instance-evidence.js';
import { histogramQuantile } from './histogram.js';
import { type ServiceTime, bestTimes } from './self-time.js';
import { Z_SIGNIFICANT, countZ, latencyChange, mean, meanZ } from './stats.js';

/**
 * Where to look first (pure): each service's window against the window before, from the source that
 * saw the most of it, per operation as well as overall, with its own (self) time, its onset and the
 * change that preceded it; then attribution (attribution.ts) moves blame from callers to callees.
 */
export interface ServiceChange {
  service: string;
  sources: string[];
  status: string;
  ratePerSec: number;
  prevRatePerSec: number | null;
  /** Requests and failed requests in each window, from `basis`. */
  requests: number;
  errors: number;
  prevRequests: number | null;
  prevErrors: number | null;
  errorRate: number;
  prevErrorRate: number | null;
  p95Ms: number | null;
  prevP95Ms: number | null;
  /** Which view the numbers come from, e.g. "eBPF histogram". */
  basis: string;
  /** What changed, in words, most important first; attribution adds why a service ranks where it does. */
  signals: string[];
  score: number;
  /** Failing now as it was before: not a new incident. */
  chronic: boolean;
  /** New failures (rising errors), slower (latency, own time), for attribution. */
  failing: boolean;
  slower: boolean;
  /** Estimated start of the change, ISO; null when no clear step. */
  onset: string | null;
  /** The deploy or configuration change just before the onset. */
  trigger: string | null;
  /** The callee this service's change is explained by (attribution). */
  explainedBy: string | null;
}

/** Gauges that tell of saturation. */
export const SATURATION_GAUGES = ['process.memory.usage', 'process.cpu.utilization', 'messaging.kafka.consumer.lag'];

export interface SummaryInput {
  windowSec: number;
  fromNs: bigint;
  toNs: bigint;
  prevFromNs: bigint;
  health: readonly ServiceHealth[];
  opsNow: readonly OperationView[];
  opsPrev: readonly OperationView[];
  timesNow: readonly ServiceTime[];
  timesPrev: readonly ServiceTime[];
  /** Per-minute series over both windows (minute 0 = start of the previous window). */
  minutes: readonly MinuteRow[];
  /** Saturation gauges over both windows. */
  gauges: readonly GaugePoint[];
  /** Events over both windows. */
  events: readonly ChangeEvent[];
  /** Exact span P95s of each window (shown for views from spans); without them the buckets' estimate is shown. */
  spanP95?: { now: readonly SpanP95Row[]; prev: readonly SpanP95Row[] };
  /** Send-to-process waits of messages per consumer, in each window (none when absent). */
  delaysNow?: readonly MessagingDelayRow[];
  delaysPrev?: readonly MessagingDelayRow[];
  /** Per service, the breakdown's rows over its instance and node keys, this window and the one before. */
  instances?: ReadonlyMap<string, readonly BreakdownRow[]>;
}

const rate = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}/s`;
const hhmm = (ns: bigint) => nsToIso(ns).slice(11, 16);
const MIN_NS = 60_000_000_000n;

function opText(o: OperationChange, now: SpanP95Index, prev: SpanP95Index): string {
  const [p0, p1] = [shownP95(prev, o, o.latency.prevP95Ms), shownP95(now, o, o.latency.p95Ms)];
  return `${o.operation} P95 ${formatMs(p0 ?? 0)} -> ${formatMs(p1 ?? 0)} (${formatCount(o.requests)} requests, ${viewLabel(o)})`;
}

function selfTimeSignal(now: ServiceTime | undefined, prev: ServiceTime | undefined): { text: string; magnitude: number } | null {
  if (!now || !prev || now.self.n < 20 || prev.self.n < 20) return null;
  const m1 = mean(now.self);
  const m0 = mean(prev.self);
  if (meanZ(now.self, prev.self) < Z_SIGNIFICANT || m1 < 1.5 * m0 || m1 - m0 < 2) return null;
  return { text: `own time per request ${formatMs(m0)} -> ${formatMs(m1)} (not spent in its callees)`, magnitude: Math.log2(m1 / Math.max(m0, 0.05)) };
}

export function compareServices(input: SummaryInput): ServiceChange[] {
  const vNow = serviceViews(input.opsNow);
  const vPrev = serviceViews(input.opsPrev);
  const best = bestViews(vNow);
  const prevView = (v: ServiceView) => vPrev.find((p) => p.service === v.service && p.source === v.source && p.basis === v.basis);
  const ops = compareOperations(input.opsNow, input.opsPrev);
  const tNow = bestTimes(input.timesNow);
  const tPrev = new Map(input.timesPrev.map((t) => [`${t.service}|${t.source}`, t]));
  const p95Now = spanP95Index(input.spanP95?.now ?? []);
  const p95Prev = spanP95Index(input.spanP95?.prev ?? []);
  const out: ServiceChange[] = [];
  for (const h of input.health) {
    const b = best.get(h.serviceName);
    const view = b?.best;
    const prev = view ? prevView(view) : undefined;
    const signals: string[] = [];
    let score = 0;
    const requests = view?.requests ?? 0;
    const prevRequests = prev?.requests ?? 0;
    const errorRate = requests === 0 ? 0 : (view?.errors ?? 0) / requests;
    const prevErrorRate = prevRequests === 0 ? null : (prev?.errors ?? 0) / prevRequests;

    for (const reason of h.reasons) {
      if (!reason.startsWith('no telemetry')) continue;
      signals.push(reason);
      score += h.status === 'unhealthy' ? 20 : 8;
    }

    const err = errorChange(view?.errors ?? 0, requests, prev?.errors ?? 0, prevRequests);
    let chronic = false;
    if (err.rising) {
      signals.push(prevErrorRate !== null ? `errors ${formatPercent(prevErrorRate)} -> ${formatPercent(errorRate)}` : `errors ${formatPercent(errorRate)}`);
      score += (errorRate - (prevErrorRate ?? 0)) * 200;
    } else if (err.chronic) {
      chronic = true;
      signals.push(`errors ${formatPercent(errorRate)}, chronic (${formatPercent(prevErrorRate ?? 0)} in the previous window)`);
    }
    const eligibleOps = ops.filter((o) => o.service === h.serviceName && b?.eligible.has(`${o.source}|${o.basis}`));
    let opFailing = false;
    if (!err.rising) {
      const opErr = eligibleOps.filter((o) => o.errors.rising).sort((x, y) => y.errorRate - x.errorRate)[0];
      if (opErr) {
        signals.push(`${opErr.operation} errors ${formatPercent(opErr.prevErrorRate ?? 0)} -> ${formatPercent(opErr.errorRate)} (${viewLabel(opErr)})`);
        score += (opErr.errorRate - (opErr.prevErrorRate ?? 0)) * 100;
        opFailing = true;
      }
    }

    // Latency: the best of service-level, per-operation and own time, never added up (one slowdown, three views).
    const lat = view && prev ? latencyChange(view.histogram, prev.histogram) : null;
    const p95Ms = view ? shownP95(p95Now, view, histogramQuantile(0.95, view.histogram)?.value ?? null) : null;
    const prevP95Ms = prev && lat ? shownP95(p95Prev, prev, lat.prevP95Ms) : null;
    let latencyScore = 0;
    if (lat?.slower) {
      signals.push(`P95 ${formatMs(prevP95Ms ?? 0)} -> ${formatMs(p95Ms ?? 0)}${view && view.basis === 'histogram' ? ` (${viewLabel(view)})` : ''}`);
      latencyScore = 10 * lat.magnitude;
    }
    const opLat = eligibleOps.filter((o) => o.latency.slower).sort((x, y) => y.latency.magnitude - x.latency.magnitude)[0];
    if (opLat && 10 * opLat.latency.magnitude > latencyScore + 3) {
      signals.push(opText(opLat, p95Now, p95Prev));
      latencyScore = 10 * opLat.latency.magnitude;
    }
    const confirm = ops.find((o) => o.service === h.serviceName && !b?.eligible.has(`${o.source}|${o.basis}`) && o.kind === 'server' && o.latency.tooFew && o.requests > 0);
    if (latencyScore > 0 && confirm) signals.push(`${viewLabel(confirm)}: too few samples (${confirm.requests}) to rank on`);
    const t = tNow.get(h.serviceName);
    const self = selfTimeSignal(t, t ? tPrev.get(`${t.service}|${t.source}`) : undefined);
    if (self) {
      signals.push(self.text);
      latencyScore = Math.max(latencyScore, 10 * self.magnitude) + 5;
    }
    score += latencyScore;

    const ratePerSec = requests / input.windowSec;
    const prevRate = prev ? prevRequests / input.windowSec : null;
    // Traffic that stopped or fell by half or more is trouble for the status too (a rise is load, not trouble).
    let trafficFell = false;
    if (prevRate !== null && prevRate > 0 && requests === 0) {
      trafficFell = true;
      signals.push('traffic stopped');
      score += 30;
    } else if (prevRate !== null && prevRate > 0.05 && Math.abs(ratePerSec / prevRate - 1) >= 0.5 && Math.abs(countZ(requests, prevRequests)) >= Z_SIGNIFICANT) {
      signals.push(`traffic ${rate(prevRate)} -> ${rate(ratePerSec)}`);
      trafficFell = ratePerSec < prevRate;
      score += 4;
    }

    const gauge = (metric: string, fromNs: bigint, toNs: bigint) =>
      input.gauges.filter((g) => g.service === h.serviceName && g.metric === metric && g.timeNs > fromNs && g.timeNs <= toNs);
    const now = (m: string) => gauge(m, input.fromNs, input.toNs);
    const before = (m: string) => gauge(m, input.prevFromNs, input.fromNs);
    // Process gauges under the default name are many unrelated processes (host metrics, scripts): never a culprit's.
    const proc = (m: (name: string) => GaugePoint[], metric: string) => (isDefaultServiceName(h.serviceName) ? [] : m(metric));
    const sat = saturation({
      memory: proc(now, 'process.memory.usage'), prevMemory: proc(before, 'process.memory.usage'),
      cpu: proc(now, 'process.cpu.utilization'), prevCpu: proc(before, 'process.cpu.utilization'),
      lag: now('messaging.kafka.consumer.lag'), prevLag: before('messaging.kafka.consumer.lag'),
      restarts: input.events.filter((e) => e.serviceName === h.serviceName && (e.kind === 'restart' || e.kind === 'crash') && e.timeNs > input.fromNs).length,
      trafficRatio: prevRequests > 0 ? requests / prevRequests : 1,
      backlog: backlogSignal(delayChange(h.serviceName, input.delaysNow ?? [], input.delaysPrev ?? [])),
    });
    signals.push(...sat.signals);
    score += sat.score;

    // One instance apart from its siblings: scored only where the service's own figures show nothing.
    const inst = instanceFinding(input.instances?.get(h.serviceName) ?? []);
    if (inst) {
      signals.push(inst.signal);
      if (latencyScore === 0 && !err.rising && !opFailing) score += inst.score;
    }
    const failing = err.rising || opFailing || (inst?.failing ?? false);
    const slower = latencyScore > 0 || (inst?.slower ?? false);
    let onset: string | null = null;
    let trigger: string | null = null;
    if (failing || slower || sat.score > 0) {
      const onsetNs = serviceOnsetNs(input.minutes, h.serviceName, failing ? 'errors' : 'latency', input.windowSec, input.prevFromNs);
      if (onsetNs !== null) {
        onset = nsToIso(onsetNs);
        const ev = triggeringEvent(input.events, h.serviceName, onsetNs);
        if (ev) {
          const mins = Number((onsetNs - ev.timeNs) / MIN_NS);
          trigger = `${ev.kind} at ${nsToIso(ev.timeNs)}: ${ev.title}`;
          signals.push(`started ~${hhmm(onsetNs)}, ${mins >= 0 ? `${mins} min after` : `${-mins} min before`} ${ev.kind === 'deploy' ? 'deploy' : 'change'}: ${ev.title}`);
          score += 10;
        } else signals.push(`started ~${hhmm(onsetNs)}`);
      }
    }
    out.push({
      service: h.serviceName,
      sources: h.sources,
      // Health reads errors and silence; a slowdown, a failing operation, saturation or falling traffic degrades it too.
      status: h.status === 'healthy' && (failing || slower || sat.score > 0 || trafficFell) ? 'degraded' : h.status,
      ratePerSec,
      prevRatePerSec: prevRate,
      requests,
      errors: view?.errors ?? 0,
      prevRequests: prev ? prevRequests : null,
      prevErrors: prev ? prev.errors : null,
      errorRate,
      prevErrorRate,
      p95Ms,
      prevP95Ms,
      basis: view ? viewLabel(view) : 'no requests',
      signals,
      score: Math.round(score * 10) / 10,
      chronic: chronic && !failing,
      failing,
      slower,
      onset,
      trigger,
      explainedBy: null,
    });
  }
  return out.sort((a, b) => b.score - a.score || a.service.localeCompare(b.service));
}

/** Services worth an investigator's attention, most severe first: only changes that cleared their significance test score. */
export function standOut(changes: readonly ServiceChange[]): ServiceChange[] {
  return changes.filter((c) => c.score >= 5 && (c.failing || c.slower || c.score >= 8));
}
