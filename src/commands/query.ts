import { parseIntOption } from '../core/args.js';
import { CoralError } from '../core/errors.js';
import { parseDuration, DURATION_HINT } from '../core/time.js';
import { type WindowFlags, windowArgs } from './window-flags.js';
import { resolveColonyChoice } from '../agent/colony-choice.js';
import { toolByName } from '../colony/tools/index.js';
import { parseToolInput } from '../core/input.js';
import { type AccessOptions, openResolvedAccess } from './colony-access.js';
import type { OutputFormat } from './output-option.js';
import { printToolOutput } from './query-output.js';

export interface QueryOptions extends AccessOptions, WindowFlags {
  output?: string;
}

/** Runs one colony tool for the CLI, exactly as an MCP client would call it, and prints it. */
export async function runQuery(tool: string, args: Record<string, unknown>, opts: QueryOptions, defaultFormat: OutputFormat): Promise<void> {
  const fmt = (opts.output ?? defaultFormat) as OutputFormat;
  const window = windowArgs(opts, '1h');
  const target = await resolveColonyChoice(opts);
  const clean = Object.fromEntries(Object.entries({ ...window, ...args }).filter(([, v]) => v !== undefined));
  // Refused before a demo loads or a colony opens: the tool would refuse the same input after.
  const def = toolByName(tool);
  if (def) parseToolInput(def.name, def.input, clean);
  const access = await openResolvedAccess(target);
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

/** `--attr key=value`, repeated, as a tool's attributes object; undefined when none was given. */
export function attributes(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (pairs === undefined || pairs.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CoralError(`Invalid --attr "${pair}".`, 'Give an attribute and its value: --attr k8s.pod.name=payment-5c2e (repeat --attr for more).');
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** A number option as its help text states it; undefined when not given. */
export function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new CoralError(`Invalid ${name} "${text}".`, `${name} takes a number, e.g. 0.99.`);
  return v;
}
