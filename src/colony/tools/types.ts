import type { z } from 'zod';
import type { ColonyReader } from '../store/colony.js';
import { type Nanos, nowNs } from '../../core/time.js';

/** What every colony tool runs against. */
export interface ToolContext {
  store: ColonyReader;
  /** "Now" for relative time ranges; a demo or an absolute CLI range can move it. */
  now(): Nanos;
  /** Upper bound on a response's text (about 4 characters per token). */
  maxResponseChars: number;
}

export const DEFAULT_MAX_RESPONSE_TOKENS = 4000;
export const CHARS_PER_TOKEN = 4;

/** The context every caller of the tools uses: the store, a clock, the default response budget. */
export function createToolContext(store: ColonyReader, now: () => Nanos = nowNs): ToolContext {
  return { store, now, maxResponseChars: DEFAULT_MAX_RESPONSE_TOKENS * CHARS_PER_TOKEN };
}

/** A tool's answer: compact text for the LLM and the same result as JSON for the UI and --json. */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

/** Bad input: becomes a tool error whose text says what was wrong and what is accepted. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

export type Shape = z.ZodRawShape;

export interface ToolDef<I extends Shape = Shape> {
  name: string;
  title: string;
  /** Starts "Recommended:" (porcelain) or "Advanced:" (plumbing). */
  description: string;
  input: I;
  output: Shape;
  run(ctx: ToolContext, args: z.infer<z.ZodObject<I>>): Promise<ToolOutput>;
  /** Old names kept working but unlisted unless enabled; their answers carry a notice. */
  deprecatedAliasOf?: string;
}

/** Keeps the input type of each tool precise while collecting them in one list. */
export function defineTool<I extends Shape>(def: ToolDef<I>): ToolDef {
  return def as unknown as ToolDef;
}
