import { formatCount, formatPercent, plural } from '../../core/format.js';

/**
 * Saturation patterns (pure): memory that climbs and resets (a leak with OOM restarts, which the latest
 * point alone hides), CPU that rises beyond what the load explains, a consumer lag that grows.
 */
export interface Point {
  timeNs: bigint;
  value: number;
}

export interface SaturationFinding {
  signals: string[];
  score: number;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const avg = (ps: readonly Point[]) => (ps.length === 0 ? null : ps.reduce((s, p) => s + p.value, 0) / ps.length);

/** Drops to below 70% of the previous point, each after a climb: process restarts, seen in the gauge. */
export function memoryResets(points: readonly Point[]): number {
  let resets = 0;
  for (let i = 1; i < points.length; i++) if (points[i].value < 0.7 * points[i - 1].value) resets++;
  return resets;
}

export function saturation(input: {
  memory: readonly Point[];
  prevMemory: readonly Point[];
  cpu: readonly Point[];
  prevCpu: readonly Point[];
  lag: readonly Point[];
  prevLag: readonly Point[];
  /** Restart and crash events of the service in this window. */
  restarts: number;
  /** This window's requests over the previous window's (1 when unknown). */
  trafficRatio: number;
  /** Messages waiting longer between send and processing (messaging-lag.ts), when they do. */
  backlog?: string | null;
}): SaturationFinding {
  const signals: string[] = [];
  let score = 0;
  const memBefore = avg(input.prevMemory) ?? input.memory[0]?.value ?? null;
  const peak = input.memory.reduce((m, p) => Math.max(m, p.value), 0);
  const resets = memoryResets(input.memory);
  if (memBefore !== null && memBefore > 0 && peak >= 1.5 * memBefore) {
    if (resets > 0 || input.restarts > 0) {
      signals.push(`memory climbs ${mb(memBefore)} -> ${mb(peak)} and resets (${plural(Math.max(resets, input.restarts), 'restart')})`);
      score += 25;
    } else {
      signals.push(`memory ${mb(memBefore)} -> ${mb(peak)}`);
      score += 8;
    }
  } else if (input.restarts >= 2) {
    signals.push(`${input.restarts} restarts`);
    score += 10;
  }
  const cpuNow = avg(input.cpu);
  const cpuPrev = avg(input.prevCpu);
  if (cpuNow !== null && cpuPrev !== null && cpuPrev > 0 && cpuNow >= 2 * cpuPrev && cpuNow >= 0.2) {
    if (input.trafficRatio >= 0.8 * (cpuNow / cpuPrev)) signals.push(`CPU ${formatPercent(cpuPrev)} -> ${formatPercent(cpuNow)}, with load`);
    else {
      signals.push(`CPU ${formatPercent(cpuPrev)} -> ${formatPercent(cpuNow)}`);
      score += 5;
    }
  }
  const lagNow = input.lag.at(-1)?.value;
  const lagPrev = input.prevLag.at(-1)?.value ?? 0;
  const lagging = lagNow !== undefined && lagNow >= 100 && lagNow > 5 * Math.max(1, lagPrev);
  if (lagging) signals.push(`consumer lag ${formatCount(lagPrev)} -> ${formatCount(lagNow)} messages`);
  if (input.backlog) signals.push(input.backlog);
  // The gauge and the spans tell of one backlog: scored once.
  if (lagging || input.backlog) score += 25;
  return { signals, score };
}
