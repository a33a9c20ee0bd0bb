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
