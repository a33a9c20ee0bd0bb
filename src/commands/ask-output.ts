import { z } from 'zod';

/** The one JSON object `coral ask --json` prints: its schema is a contract for scripts. */
export const askJsonSchema = z.object({
  answer: z.string(),
  model: z.string(),
  conversation_id: z.string(),
  finished: z.enum(['answered', 'max_rounds', 'blocked', 'cancelled', 'error']),
  tool_calls: z.array(z.object({ tool: z.string(), server: z.string(), args: z.record(z.string(), z.unknown()), duration_ms: z.number(), ok: z.boolean() })),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
}).strict();

export type AskJson = z.infer<typeof askJsonSchema>;
