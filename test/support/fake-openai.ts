/**
 * A strict fake of OpenAI chat completions (and Ollama's OpenAI-compatible /v1), as documented:
 * - an assistant message with `tool_calls` must be followed by one tool message per call id;
 *   a tool message must answer a call of the assistant message before it;
 * - an assistant message needs content or tool calls (content null only beside tool_calls);
 * - tool call ids are unique in the conversation; tool_choice only with tools.
 * It emits tool calls in fragments (OpenAI: id and name first, then arguments by index) or, as
 * Ollama does, every call whole with `index: 0`; content_filter endings; 401 bodies.
 */
import { type FakeLlm, type Rejection, type ScriptedTurn, pause, startFake } from './fake-llm.js';

type Msg = { role: string; content?: string | null; tool_calls?: { id: string }[]; tool_call_id?: string };

function validate(b: Record<string, unknown>): Rejection | null {
  const bad = (message: string): Rejection => ({ status: 400, message });
  const messages = (b.messages ?? []) as Msg[];
  const seen = new Set<string>();
  let pending: string[] = [];
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!m.tool_call_id || !pending.includes(m.tool_call_id)) return bad(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}])`);
      pending = pending.filter((id) => id !== m.tool_call_id);
      continue;
    }
    if (pending.length > 0) return bad(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`);
    if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      if ((m.content === null || m.content === undefined || m.content === '') && calls.length === 0) return bad(`Invalid value for 'content': expected a string, got null. (messages[${i}])`);
      for (const c of calls) {
        if (seen.has(c.id)) return bad(`Duplicate value for 'tool_call_id' of ${c.id} in message[${i}]. Please ensure all tool call ids are unique.`);
        seen.add(c.id);
      }
      pending = calls.map((c) => c.id);
    }
  }
  if (pending.length > 0) return bad(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`);
  if (b.tool_choice !== undefined && !Array.isArray(b.tools)) return bad("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.");
  return null;
}

function fake(script: ScriptedTurn[], ollama: boolean): Promise<FakeLlm> {
  let seq = 0;
  return startFake(script, {
    validate: (b, path) => (ollama && !path.startsWith('/v1/') ? { status: 404, message: '404 page not found' } : validate(b)),
    errorBody: (status, message) => ({ error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: status === 401 ? 'invalid_api_key' : null } }),
    write: async (res, turn) => {
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const t of turn.text ?? []) {
        res.write(chunk({ content: t }));
        await pause(turn.delayMs);
      }
      (turn.toolCalls ?? []).forEach((c, i) => {
        const args = JSON.stringify(c.args);
        const id = c.id ?? `call_${++seq}`;
        if (ollama) {
          // Ollama: each call whole, in its own chunk, every one with index 0.
          res.write(chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: c.name, arguments: args } }] }));
        } else {
          res.write(chunk({ tool_calls: [{ index: i, id, type: 'function', function: { name: c.name, arguments: args.slice(0, 5) } }] }));
          res.write(chunk({ tool_calls: [{ index: i, function: { arguments: args.slice(5) } }] }));
        }
      });
      res.write(chunk({}, turn.finish ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop')));
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-fake', choices: [], usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 } })}\n\n`);
      res.write('data: [DONE]\n\n');
    },
  });
}

export const fakeOpenAI = (script: ScriptedTurn[]) => fake(script, false);
export const fakeOllama = (script: ScriptedTurn[]) => fake(script, true);

/** OpenAI's answer to a bad key. */
export const OPENAI_BAD_KEY: ScriptedTurn = {
  status: 401,
  errorBody: { error: { message: 'Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
};
