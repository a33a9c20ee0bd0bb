import { formatCount, formatPercent, plural } from '../../core/format.js';

/**
 * Saturation patterns (pure): memory that climbs and resets (a leak with OOM restarts, which the latest
 * point alone hides), CPU that rises beyond what the load explains, a consumer lag that grows.
 */
export interface Point {
  timeNs: bigint;
  value: number;
  /**
   * Which series the point belongs to (one process, instance or partition: the metric's resource and
   * attributes). Points without one are one series.
   */
  series?: string;
}

export interface SaturationFinding {
  signals: string[];
  score: number;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const avg = (ps: readonly Point[]) => (ps.length === 0 ? null : ps.reduce((s, p) => s + p.value, 0) / ps.length);

/** Points per series, each oldest first. */
export function bySeries(points: readonly Point[]): Point[][] {
  const out = new Map<string | undefined, Point[]>();
  for (const p of points) out.set(p.series, [...(out.get(p.series) ?? []), p]);
  return [...out.values()].map((ps) => [...ps].sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0)));
}

/**
 * Drops to below 70% of the previous point of the same series, each after a climb: process restarts,
 * seen in the gauge. A series that appears (a new process, a new pid) is not a restart.
 */
export function memoryResets(points: readonly Point[]): number {
  let resets = 0;
  for (const ps of bySeries(points)) for (let i = 1; i < ps.length; i++) if (ps[i].value < 0.7 * ps[i - 1].value) resets++;
  return resets;
}

interface MemoryClimb {
  before: number;
  peak: number;
  resets: number;
}

/**
 * The series whose memory climbed most against its own earlier level (its previous window, else its
 * first point): each process is compared with itself, never with another that came or went.
 */
function memoryClimb(memory: readonly Point[], prevMemory: readonly Point[]): MemoryClimb | null {
  const prev = new Map(bySeries(prevMemory).map((ps) => [ps[0].series, ps]));
  let worst: MemoryClimb | null = null;
  for (const ps of bySeries(memory)) {
    const before = avg(prev.get(ps[0].series) ?? []) ?? ps[0].value;
    const peak = ps.reduce((m, p) => Math.max(m, p.value), 0);
    if (before <= 0) continue;
    const c = { before, peak, resets: memoryResets(ps) };
    // Ties broken on the numbers alone, so the reading never depends on the order a store returned series in.
    if (worst === null || c.peak / c.before > worst.peak / worst.before || (c.peak / c.before === worst.peak / worst.before && c.peak > worst.peak)) worst = c;
  }
  return worst;
}

/** Per series its latest value, summed: a consumer group's lag over its partitions. */
function latestTotal(points: readonly Point[]): number | undefined {
  const series = bySeries(points);
  return series.length === 0 ? undefined : series.reduce((s, ps) => s + (ps.at(-1)?.value ?? 0), 0);
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
  const climb = memoryClimb(input.memory, input.prevMemory);
  if (climb !== null && climb.peak >= 1.5 * climb.before) {
    const { before: memBefore, peak, resets } = climb;
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
  const lagNow = latestTotal(input.lag);
  const lagPrev = latestTotal(input.prevLag) ?? 0;
  const lagging = lagNow !== undefined && lagNow >= 100 && lagNow > 5 * Math.max(1, lagPrev);
  if (lagging) signals.push(`consumer lag ${formatCount(lagPrev)} -> ${formatCount(lagNow)} messages`);
  if (input.backlog) signals.push(input.backlog);
  // The gauge and the spans tell of one backlog: scored once.
  if (lagging || input.backlog) score += 25;
  return { signals, score };
}
