import { formatCount, formatMs, formatPercent } from '../../core/format.js';
import type { ServiceHealth } from '../store/queries/services.js';
import type { MetricInfo } from '../store/queries/metrics.js';
import type { TopologyEdge } from '../store/queries/topology.js';

/**
 * Where to look first (pure): each service's window compared with the window before, scored so
 * that the services that changed most, in the ways that hurt users most, come first.
 */
export interface ServiceChange {
  service: string;
  sources: string[];
  status: string;
  ratePerSec: number;
  prevRatePerSec: number | null;
  errorRate: number;
  prevErrorRate: number | null;
  p95Ms: number | null;
  prevP95Ms: number | null;
  /** What changed, in words, most important first. */
  signals: string[];
  score: number;
}

/** Gauges that tell of saturation, with how to read them. */
export const SATURATION_GAUGES = ['process.memory.usage', 'process.cpu.utilization', 'messaging.kafka.consumer.lag'];

const rate = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}/s`;

function gaugeSignals(service: string, now: MetricInfo[], prev: MetricInfo[]): { signals: string[]; score: number } {
  const signals: string[] = [];
  let score = 0;
  const pick = (list: MetricInfo[], name: string) => list.find((m) => m.serviceName === service && m.metricName === name);
  const mem = [pick(now, 'process.memory.usage'), pick(prev, 'process.memory.usage')];
  if (mem[0]?.last && mem[1]?.avg && mem[0].last >= 1.5 * mem[1].avg) {
    signals.push(`memory ${(mem[1].avg / 1e6).toFixed(0)} MB -> ${(mem[0].last / 1e6).toFixed(0)} MB`);
    score += 8;
  }
  const cpu = [pick(now, 'process.cpu.utilization'), pick(prev, 'process.cpu.utilization')];
  if (cpu[0]?.avg && cpu[1]?.avg && cpu[0].avg >= 2 * cpu[1].avg && cpu[0].avg >= 0.2) {
    signals.push(`CPU ${formatPercent(cpu[1].avg)} -> ${formatPercent(cpu[0].avg)}`);
    score += 5;
  }
  const lag = [pick(now, 'messaging.kafka.consumer.lag'), pick(prev, 'messaging.kafka.consumer.lag')];
  if (lag[0]?.last !== undefined && lag[0]?.last !== null && lag[0].last >= 100 && lag[0].last > 5 * Math.max(1, lag[1]?.last ?? 0)) {
    signals.push(`consumer lag ${formatCount(lag[1]?.last ?? 0)} -> ${formatCount(lag[0].last)} messages`);
    score += 25;
  }
  return { signals, score };
}

export function compareServices(
  now: ServiceHealth[],
  prev: ServiceHealth[],
  windowSec: number,
  gaugesNow: MetricInfo[] = [],
  gaugesPrev: MetricInfo[] = [],
): ServiceChange[] {
  const before = new Map(prev.map((p) => [p.serviceName, p]));
  const out: ServiceChange[] = [];
  for (const h of now) {
    const p = before.get(h.serviceName);
    const hadTraffic = p !== undefined && p.requests > 0;
    const signals: string[] = [];
    let score = 0;
    if (h.status === 'unhealthy') score += 20;
    else if (h.status === 'degraded') score += 8;
    const errDelta = h.errorRate - (hadTraffic ? p.errorRate : 0);
    if (h.errors >= 2 && h.errorRate >= 0.01 && errDelta >= 0.01) {
      signals.push(hadTraffic ? `errors ${formatPercent(p.errorRate)} -> ${formatPercent(h.errorRate)}` : `errors ${formatPercent(h.errorRate)}`);
      score += errDelta * 200;
    }
    if (hadTraffic && h.p95Ms !== null && p.p95Ms !== null && p.p95Ms > 0 && h.p95Ms >= 1.5 * p.p95Ms && h.p95Ms - p.p95Ms >= 5) {
      signals.push(`P95 ${formatMs(p.p95Ms)} -> ${formatMs(h.p95Ms)}`);
      score += 10 * Math.log2(h.p95Ms / p.p95Ms);
    }
    const r = h.requests / windowSec;
    const pr = hadTraffic ? p.requests / windowSec : null;
    if (pr !== null && r === 0) {
      signals.push('traffic stopped');
      score += 30;
    } else if (pr !== null && pr > 0.05 && Math.abs(r / pr - 1) >= 0.5) {
      signals.push(`traffic ${rate(pr)} -> ${rate(r)}`);
      score += 4;
    }
    const g = gaugeSignals(h.serviceName, gaugesNow, gaugesPrev);
    signals.push(...g.signals);
    score += g.score;
    for (const reason of h.reasons) if (reason.startsWith('no telemetry')) signals.unshift(reason);
    out.push({
      service: h.serviceName,
      sources: h.sources,
      status: h.status,
      ratePerSec: r,
      prevRatePerSec: pr,
      errorRate: h.errorRate,
      prevErrorRate: hadTraffic ? p.errorRate : null,
      p95Ms: h.p95Ms,
      prevP95Ms: hadTraffic ? p.p95Ms : null,
      signals,
      score: Math.round(score * 10) / 10,
    });
  }
  return out.sort((a, b) => b.score - a.score || a.service.localeCompare(b.service));
}

/**
 * Errors travel upstream: when a service's failing calls go to another service that also fails
 * more, the callee is the likelier cause. Callers are demoted below their failing callees and say so.
 */
export function attributeErrors(changes: ServiceChange[], edges: readonly TopologyEdge[]): ServiceChange[] {
  const failing = new Set(changes.filter((c) => c.signals.some((s) => s.startsWith('errors'))).map((c) => c.service));
  const byName = new Map(changes.map((c) => [c.service, c]));
  for (const c of changes) {
    if (!failing.has(c.service)) continue;
    const culprits = edges.filter((e) => e.from === c.service && e.errors > 0 && failing.has(e.to)).map((e) => e.to);
    if (culprits.length === 0) continue;
    c.signals.push(`its failing calls go to ${culprits.join(', ')}`);
    const minCallee = Math.min(...culprits.map((n) => byName.get(n)?.score ?? 0));
    c.score = Math.round(Math.min(c.score, minCallee - 1) * 10) / 10;
  }
  return [...changes].sort((a, b) => b.score - a.score || a.service.localeCompare(b.service));
}

/** Services worth an investigator's attention, most severe first. */
export function standOut(changes: ServiceChange[]): ServiceChange[] {
  return changes.filter((c) => c.score >= 5 && c.signals.length > 0);
}
