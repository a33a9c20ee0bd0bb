import { parseIntOption } from '../core/args.js';
import { CoralError } from '../core/errors.js';
import { type Nanos, parseDuration, parseInstant, nowNs, DURATION_HINT } from '../core/time.js';
import { type AccessOptions, openColonyAccess } from './colony-access.js';
import { OUTPUT_FORMATS, type OutputFormat, printToolOutput } from './query-output.js';

export interface QueryOptions extends AccessOptions {
  since?: string;
  from?: string;
  to?: string;
  output?: string;
}

/** The window as tools take it: a `time_range` back from a "now" that --to can move. */
function window(opts: QueryOptions): { timeRange: string; now: () => Nanos } {
  if (opts.from === undefined && opts.to === undefined) {
    const since = opts.since ?? '1h';
    parseDuration(since);
    return { timeRange: since, now: nowNs };
  }
  if (opts.colony) throw new CoralError('--from/--to need a local colony (--db or --demo).', 'Against a running colony use --since, which counts back from its now.');
  const to = opts.to !== undefined ? parseInstant(opts.to) : nowNs();
  const from = opts.from !== undefined ? parseInstant(opts.from) : to - parseDuration(opts.since ?? '1h');
  if (from >= to) throw new CoralError('--from must be before --to.');
  return { timeRange: `${(to - from) / 1_000_000_000n}s`, now: () => to };
}

function format(opts: QueryOptions, fallback: OutputFormat): OutputFormat {
  const f = (opts.output ?? fallback) as OutputFormat;
  if (!OUTPUT_FORMATS.includes(f)) throw new CoralError(`Invalid --output "${opts.output}".`, `Use one of: ${OUTPUT_FORMATS.join(', ')}.`);
  return f;
}

/** Runs one colony tool for the CLI, exactly as an MCP client would call it, and prints it. */
export async function runQuery(tool: string, args: Record<string, unknown>, opts: QueryOptions, defaultFormat: OutputFormat): Promise<void> {
  const fmt = format(opts, defaultFormat);
  const w = window(opts);
  const access = await openColonyAccess(opts, w.now);
  try {
    const clean = Object.fromEntries(Object.entries({ time_range: w.timeRange, ...args }).filter(([, v]) => v !== undefined));
    printToolOutput(tool, await access.call(tool, clean), fmt);
  } finally {
    await access.close();
  }
}

export const ms = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  try {
    return Number(parseDuration(text)) / 1e6;
  } catch {
    throw new CoralError(`Invalid duration "${text}".`, `${DURATION_HINT} A bare number means milliseconds.`);
  }
};

export const int = (name: string, text: string | undefined, max: number) => (text === undefined ? undefined : parseIntOption(name, text, 0, max));
