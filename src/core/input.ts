import { z } from 'zod';
import { likelyMeant } from './closest.js';
import { CoralError } from './errors.js';

/** What a caller hears about arguments a tool or prompt does not take: the likely intended one and all accepted. */
export function unknownArgumentsMessage(unknown: readonly string[], accepted: readonly string[]): string {
  const list = accepted.length ? accepted.join(', ') : '(none)';
  return unknown.map((k) => {
    const meant = likelyMeant(k, accepted);
    return `unknown argument '${k}'${meant ? `; did you mean '${meant}'?` : '.'} Accepted: ${list}`;
  }).join('\n');
}

/**
 * A tool's or prompt's input object that refuses keys it does not define. A plain z.object drops
 * them, so a misspelt filter ({"protcol": "sql"}) would silently answer an unfiltered question.
 */
export function strictInput<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const accepted = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? unknownArgumentsMessage(iss.keys, accepted) : undefined),
  });
}

/**
 * Validates tool arguments that did not come through an MCP server (the CLI) against the tool's own
 * input shape, so a command and its tool can never disagree about what is accepted.
 */
export function parseToolInput<S extends z.ZodRawShape>(toolName: string, shape: S, args: Record<string, unknown>): z.infer<z.ZodObject<S>> {
  const parsed = strictInput(shape).safeParse(args);
  if (!parsed.success) {
    throw new CoralError(`Invalid input for ${toolName}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
