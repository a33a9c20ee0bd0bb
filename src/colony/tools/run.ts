import { z } from 'zod';
import { CoralError } from '../../core/errors.js';
import { type ToolContext, ToolInputError, type ToolDef, type ToolOutput } from './types.js';

/**
 * Runs a tool outside MCP (the CLI) with the same validation the MCP server applies, so that
 * `coral query` and the tools can never disagree.
 */
export async function runTool(def: ToolDef, ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
  const parsed = z.object(def.input).safeParse(args);
  if (!parsed.success) {
    throw new CoralError(`Invalid input for ${def.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
  }
  try {
    return await def.run(ctx, parsed.data);
  } catch (err) {
    if (err instanceof ToolInputError) throw new CoralError(err.message);
    throw err;
  }
}
