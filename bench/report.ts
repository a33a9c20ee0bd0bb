import { availableParallelism, loadavg } from 'node:os';

/** Benchmarks print one JSON object per line: machine-readable, and still readable by a person. The load average says how shared the machine was. */
export function report(figures: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...figures, node: process.version, cores: availableParallelism(), load1: Number(loadavg()[0].toFixed(1)) })}\n`);
}


/**
 * Runs `fn` once to warm up, then `runs` times; the median and the slowest wall clock, and the median
 * CPU time of this process (all threads, so an in-process engine counts), in milliseconds.
 */
export async function timeRuns(fn: () => Promise<unknown>, runs = 15): Promise<{ p50: number; max: number; cpuP50: number }> {
  await fn();
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { p50: ms[Math.floor(runs / 2)], max: ms[runs - 1], cpuP50: cpu[Math.floor(runs / 2)] };
}

/** P50, P95 and the slowest of a list of milliseconds (nearest rank), rounded to 0.1 ms; nulls for none. */
export function latencySummary(ms: readonly number[]): { p50_ms: number | null; p95_ms: number | null; max_ms: number | null } {
  if (ms.length === 0) return { p50_ms: null, p95_ms: null, max_ms: null };
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1));
  return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: Number(sorted[sorted.length - 1].toFixed(1)) };
}
