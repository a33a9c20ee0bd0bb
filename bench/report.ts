import { availableParallelism } from 'node:os';

/** Benchmarks print one JSON object per line: machine-readable, and still readable by a person. */
export function report(figures: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...figures, node: process.version, cores: availableParallelism() })}\n`);
}


/** Runs `fn` once to warm up, then `runs` times; the median and the slowest, in milliseconds. */
export async function timeRuns(fn: () => Promise<unknown>, runs = 15): Promise<{ p50: number; max: number }> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(runs / 2)], max: ms[runs - 1] };
}
