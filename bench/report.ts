import { availableParallelism } from 'node:os';

/** Benchmarks print one JSON object per line: machine-readable, and still readable by a person. */
export function report(figures: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...figures, node: process.version, cores: availableParallelism() })}\n`);
}

