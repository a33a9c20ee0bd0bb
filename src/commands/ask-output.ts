import { z } from 'zod';

/** What an answer's [n] rests on: the n-th tool call of the turn, the sentences citing it, and its data. */
const citation = z.object({
  ref: z.number(),
  tool: z.string(),
  server: z.string(),
  args: z.record(z.string(), z.unknown()),
  ok: z.boolean(),
  claims: z.array(z.string()),
  data: z.string(),
});

/** The one JSON object `coral ask --json` prints: its schema is a contract for scripts. */
export const askJsonSchema = z.object({
  answer: z.string(),
  /** The model that actually answered (a fallback's, when one took over). */
  model: z.string(),
  conversation_id: z.string(),
  finished: z.enum(['answered', 'max_rounds', 'blocked', 'cancelled', 'error']),
  tool_calls: z.array(z.object({ tool: z.string(), server: z.string(), args: z.record(z.string(), z.unknown()), duration_ms: z.number(), ok: z.boolean() })),
  citations: z.array(citation),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
}).strict();

export type AskJson = z.infer<typeof askJsonSchema>;
export type Citation = z.infer<typeof citation>;

/** A citation's data is the tool result as the user would check it, cut to this many characters. */
export const CITATION_DATA_CHARS = 2_000;

/**
 * The citations of an answer: each [n] (or [n, m]) it contains, with the sentences that cite it and
 * the result of the n-th call. References to calls that do not exist are left out.
 */
export function citationsOf(answer: string, calls: { tool: string; server: string; args: Record<string, unknown>; ok: boolean; text: string }[]): Citation[] {
  const claims = new Map<number, string[]>();
  const sentences = answer.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
  for (const s of sentences) {
    for (const m of s.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
      for (const n of m[1].split(',').map((x) => Number(x.trim()))) {
        if (n < 1 || n > calls.length) continue;
        const list = claims.get(n) ?? [];
        if (!list.includes(s)) list.push(s);
        claims.set(n, list);
      }
    }
  }
  return [...claims].sort((a, b) => a[0] - b[0]).map(([ref, said]) => {
    const c = calls[ref - 1];
    const data = c.text.length > CITATION_DATA_CHARS ? `${c.text.slice(0, CITATION_DATA_CHARS)}…` : c.text;
    return { ref, tool: c.tool, server: c.server, args: c.args, ok: c.ok, claims: said, data };
  });
}
