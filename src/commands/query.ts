import { parseIntOption } from '../core/args.js';
import { CoralError } from '../core/errors.js';
import { type Nanos, parseDuration, parseInstant, nowNs, DURATION_HINT } from '../core/time.js';
import { resolveColonyChoice } from '../agent/colony-choice.js';
import { toolByName } from '../colony/tools/index.js';
import { parseToolInput } from '../core/input.js';
import { type AccessOptions, openResolvedAccess } from './colony-access.js';
import type { OutputFormat } from './output-option.js';
import { printToolOutput } from './query-output.js';

export interface QueryOptions extends AccessOptions {
  since?: string;
  from?: string;
  to?: string;
  output?: string;
}

/** The window as tools take it: a `time_range` back from a "now" that --to can move (only on a local colony). */
export function queryWindow(opts: QueryOptions, remote: boolean, now: Nanos = nowNs()): { timeRange: string; now: () => Nanos } {
  if (opts.from === undefined && opts.to === undefined) {
    const since = opts.since ?? '1h';
    parseDuration(since);
    return { timeRange: since, now: nowNs };
  }
  const to = opts.to !== undefined ? parseInstant(opts.to, now) : now;
  const from = opts.from !== undefined ? parseInstant(opts.from, now) : to - parseDuration(opts.since ?? '1h');
  if (from >= to) throw new CoralError('--from must be before --to.');
  // A running colony counts its windows back from its own now: only windows ending now can be asked.
  if (remote && opts.to !== undefined && now - to > 60_000_000_000n) {
    throw new CoralError('--to in the past needs the colony file, but a running colony answers for windows that end now.', 'Use --since or --from alone, or stop `coral colony serve` and query the file with --db.');
  }
  const seconds = (to - from + 999_999_999n) / 1_000_000_000n;
  return { timeRange: `${seconds}s`, now: remote ? nowNs : () => to };
}

/** Runs one colony tool for the CLI, exactly as an MCP client would call it, and prints it. */
export async function runQuery(tool: string, args: Record<string, unknown>, opts: QueryOptions, defaultFormat: OutputFormat): Promise<void> {
  const fmt = (opts.output ?? defaultFormat) as OutputFormat;
  const target = await resolveColonyChoice(opts);
  const w = queryWindow(target, target.colony !== undefined);
  const clean = Object.fromEntries(Object.entries({ time_range: w.timeRange, ...args }).filter(([, v]) => v !== undefined));
  // Refused before a demo loads or a colony opens: the tool would refuse the same input after.
  const def = toolByName(tool);
  if (def) parseToolInput(def.name, def.input, clean);
  const access = await openResolvedAccess(target, w.now);
  try {
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

/** An integer option within [min, max], as its help text states it. */
export const int = (name: string, text: string | undefined, min: number, max: number) => (text === undefined ? undefined : parseIntOption(name, text, min, max));
