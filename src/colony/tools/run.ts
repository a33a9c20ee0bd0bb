import { CoralError } from '../../core/errors.js';
import { parseToolInput } from '../../core/input.js';
import { type ToolContext, ToolInputError, type ToolDef, type ToolOutput } from './types.js';

/**
 * Runs a tool outside MCP (the CLI) with the same validation the MCP server applies, so that
 * `coral query` and the tools can never disagree.
 */
export async function runTool(def: ToolDef, ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
  const input = parseToolInput(def.name, def.input, args);
  try {
    return await def.run(ctx, input);
  } catch (err) {
    if (err instanceof ToolInputError) throw new CoralError(err.message);
    throw err;
  }
}
