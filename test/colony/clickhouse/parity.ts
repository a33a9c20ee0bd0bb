import type { ColonyReader } from '../../../src/colony/store/colony.js';
import { PLUMBING_TOOLS, PORCELAIN_TOOLS, toolByName } from '../../../src/colony/tools/index.js';
import { runTool } from '../../../src/colony/tools/run.js';
import { createToolContext } from '../../../src/colony/tools/types.js';
import type { Nanos } from '../../../src/core/time.js';

/** Every porcelain and plumbing tool, with the arguments the parity test calls it with. */
export function toolCalls(services: readonly string[]): { tool: string; args: Record<string, unknown> }[] {
  const calls: { tool: string; args: Record<string, unknown> }[] = [];
  for (const def of [...PORCELAIN_TOOLS, ...PLUMBING_TOOLS]) {
    const hasService = 'service' in def.input;
    if (def.name === 'coral_get_trace_by_id') continue; // called with ids the trace searches returned
    calls.push({ tool: def.name, args: {} });
    if (hasService) for (const service of services) calls.push({ tool: def.name, args: { service } });
  }
  return calls;
}

/** Times and float rounding aside: numbers to 9 significant digits; attribute values as strings (the exporter's maps keep no types). */
export function normalize(v: unknown, key = ''): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : Number(v.toPrecision(9));
  if (Array.isArray(v)) return v.map((x) => normalize(x, key));
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (key === 'attributes' || key === 'resourceAttributes') {
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]));
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, normalize(x, k)]));
  }
  return v;
}

/** Decimal numbers in text rounded the same way. */
export function normalizeText(text: string): string {
  return text.replace(/-?\d+\.\d{4,}/g, (m) => String(Number(Number(m).toPrecision(9))));
}

export interface Answer {
  text: string;
  structured: unknown;
  isError: boolean;
}

export async function answer(store: ColonyReader, now: Nanos, tool: string, args: Record<string, unknown>): Promise<Answer> {
  const ctx = createToolContext(store, () => now);
  const def = toolByName(tool);
  if (!def) throw new Error(`no tool ${tool}`);
  try {
    const r = await runTool(def, ctx, args);
    return { text: normalizeText(r.text), structured: normalize(r.structured), isError: false };
  } catch (err) {
    return { text: (err as Error).message, structured: null, isError: true };
  }
}
