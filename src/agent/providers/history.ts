import type { Message } from '../events.js';

/**
 * The text a model message carries back to an API. A blocked or empty answer becomes a short note:
 * every API rejects an empty assistant message (Gemini `parts: []`, Anthropic `content: []`, OpenAI
 * `content: null` without tool calls), and older conversation files may hold one.
 */
export function modelText(m: Extract<Message, { role: 'model' }>): string {
  if (m.blocked) return `${m.text ? `${m.text}\n` : ''}[No answer: the provider blocked this response (${m.blocked}).]`;
  if (!m.text && m.toolCalls.length === 0) return '[No answer.]';
  return m.text;
}
