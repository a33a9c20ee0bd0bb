/**
 * A strict fake of Anthropic's messages API, as documented:
 * - "Requests which include `tool_use` or `tool_result` blocks must define tools";
 * - `tool_use` ids are unique and match ^[a-zA-Z0-9_-]+$; each is answered by a `tool_result`
 *   in the next user message, and each `tool_result` answers a `tool_use` just before it;
 * - every message but a final assistant one has non-empty content; text blocks are non-empty;
 * - tool input_schema in JSON Schema draft 2020-12 (no draft-07 `$schema`, no `definitions`).
 * It emits typed SSE events, `stop_reason: refusal`, a 200 stream that turns into
 * `event: error` (overloaded_error), and 401 authentication_error bodies.
 */
import { type FakeLlm, type Rejection, type ScriptedTurn, pause, startFake } from './fake-llm.js';

type Block = { type: string; id?: string; tool_use_id?: string; text?: string };
type Msg = { role: string; content: string | Block[] };

function validate(b: Record<string, unknown>): Rejection | null {
  const bad = (message: string): Rejection => ({ status: 400, message });
  const messages = (b.messages ?? []) as Msg[];
  const blocks = (m: Msg): Block[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
  const usesTools = messages.some((m) => blocks(m).some((x) => x.type === 'tool_use' || x.type === 'tool_result'));
  if (usesTools && !Array.isArray(b.tools)) return bad('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  const ids = new Set<string>();
  for (const [i, m] of messages.entries()) {
    const bs = blocks(m);
    if (bs.length === 0 && !(i === messages.length - 1 && m.role === 'assistant')) return bad(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    for (const x of bs) {
      if (x.type === 'text' && !x.text) return bad(`messages.${i}: text content blocks must be non-empty`);
      if (x.type === 'tool_use') {
        if (!x.id || !/^[a-zA-Z0-9_-]+$/.test(x.id)) return bad(`messages.${i}.content: tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
        if (ids.has(x.id)) return bad('messages: `tool_use` ids must be unique');
        ids.add(x.id);
      }
    }
    const uses = bs.filter((x) => x.type === 'tool_use').map((x) => x.id);
    const results = messages[i + 1] ? blocks(messages[i + 1]).filter((x) => x.type === 'tool_result').map((x) => x.tool_use_id) : [];
    if (m.role === 'assistant' && uses.length > 0) {
      const missing = uses.filter((id) => !results.includes(id));
      if (missing.length > 0) return bad(`messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
    if (m.role === 'user') {
      const prev = i > 0 ? blocks(messages[i - 1]).filter((x) => x.type === 'tool_use').map((x) => x.id) : [];
      const stray = bs.filter((x) => x.type === 'tool_result' && !prev.includes(x.tool_use_id));
      if (stray.length > 0) return bad(`messages.${i}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray[0].tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
    }
  }
  for (const [i, t] of ((b.tools ?? []) as { input_schema?: Record<string, unknown> }[]).entries()) {
    const s = JSON.stringify(t.input_schema ?? {});
    if (/"\$schema":"(?!https:\/\/json-schema\.org\/draft\/2020-12\/schema)/.test(s) || s.includes('"definitions"')) return bad(`tools.${i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).`);
  }
  return null;
}

export function fakeAnthropic(script: ScriptedTurn[]): Promise<FakeLlm> {
  let seq = 0;
  return startFake(script, {
    validate,
    errorBody: (status, message) => ({ type: 'error', error: { type: status === 400 ? 'invalid_request_error' : status === 401 ? 'authentication_error' : status === 529 ? 'overloaded_error' : 'api_error', message } }),
    write: async (res, turn) => {
      const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('message_start', { message: { id: 'm1', type: 'message', role: 'assistant', content: [], model: 'claude-fake', stop_reason: null, stop_sequence: null, usage: { input_tokens: 40, output_tokens: 1 } } });
      if (turn.midStreamError) {
        ev('error', { error: { type: turn.midStreamError, message: 'Overloaded' } });
        return;
      }
      let index = 0;
      if (turn.text?.length) {
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const t of turn.text) {
          ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
          await pause(turn.delayMs);
        }
        ev('content_block_stop', { index });
        index++;
      }
      for (const c of turn.toolCalls ?? []) {
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: c.id ?? `toolu_${++seq}`, name: c.name, input: {} } });
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.args) } });
        ev('content_block_stop', { index });
        index++;
      }
      ev('message_delta', { delta: { stop_reason: turn.finish ?? (turn.toolCalls?.length ? 'tool_use' : 'end_turn'), stop_sequence: null }, usage: { output_tokens: 12 } });
      ev('message_stop', {});
    },
  });
}

/** Anthropic's answer to a bad key. */
export const ANTHROPIC_BAD_KEY: ScriptedTurn = { status: 401, errorBody: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } };
