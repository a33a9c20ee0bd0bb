import { z } from 'zod';
import { CoralError } from './errors.js';

/**
 * Validates tool arguments that did not come through an MCP server (the CLI) against the tool's own
 * input shape, so a command and its tool can never disagree about what is accepted.
 */
export function parseToolInput<S extends z.ZodRawShape>(toolName: string, shape: S, args: Record<string, unknown>): z.infer<z.ZodObject<S>> {
  const parsed = z.object(shape).safeParse(args);
  if (!parsed.success) {
    throw new CoralError(`Invalid input for ${toolName}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
