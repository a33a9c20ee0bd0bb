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

/** Attribute values as strings (the exporter's maps keep no types); numbers are compared by firstDifference. */
export function normalize(v: unknown, key = ''): unknown {
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

/** The first place two answers differ beyond float rounding (relative 1e-6), or null. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b)) ? null : `${path}: ${a} != ${b}`;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)?.slice(0, 120)} != ${JSON.stringify(b)?.slice(0, 120)}`;
}
