import { randomBytes } from 'node:crypto';
import type { Message, ToolCall } from './events.js';

/**
 * Tool-call ids unique within the conversation. Gemini may leave ids out and Ollama numbers calls
 * per response, while Anthropic rejects a history that repeats a `tool_use` id and OpenAI pairs
 * results by id: a conversation that switches provider (fallback, --continue) needs them unique.
 * A missing or already-used id is replaced; ids keep to [A-Za-z0-9_-], the pattern Anthropic requires.
 */
export function withUniqueIds(calls: ToolCall[], history: Message[], fresh: () => string = () => `call_${randomBytes(8).toString('hex')}`): ToolCall[] {
  const used = new Set<string>();
  for (const m of history) if (m.role === 'model') for (const c of m.toolCalls) used.add(c.id);
  return calls.map((c) => {
    let id = /^[A-Za-z0-9_-]{1,64}$/.test(c.id) && !used.has(c.id) ? c.id : fresh();
    while (used.has(id)) id = fresh();
    used.add(id);
    return id === c.id ? c : { ...c, id };
  });
}
