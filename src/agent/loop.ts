import { withUniqueIds } from './call-ids.js';
import type { AgentEvent, Message, ToolCall, ToolResult } from './events.js';
import type { ModelProvider } from './providers/types.js';
import type { AskWindow } from './ask-window.js';
import { truncate, windowInstruction, withResolved } from './prompt.js';
import type { ToolHub } from './toolhub.js';

export interface TurnOptions {
  provider: ModelProvider;
  hub: ToolHub;
  system: string;
  /** The conversation so far; the turn appends to it, always leaving tool calls paired with results. */
  messages: Message[];
  question: string;
  maxToolRounds?: number;
  toolTimeoutMs?: number;
  /** Tool output reaches the model cut to this many tokens (about 4 characters each). */
  toolOutputTokens?: number;
  signal?: AbortSignal;
  /** The window the user chose with flags (--since, --from/--to): the model is told to use it, the providers get it as req.window; it wins over the question's words. */
  window?: AskWindow;
}

export const DEFAULT_MAX_TOOL_ROUNDS = 8;
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
export const DEFAULT_TOOL_OUTPUT_TOKENS = 6_000;

/**
 * One turn of the agent loop: the model answers or asks for tools (several at once run
 * concurrently), sees their results, and goes on until it answers or reaches max_tool_rounds, when
 * it must answer with what it has. Cancellation at any point leaves the conversation consistent.
 */
export async function* runTurn(o: TurnOptions): AsyncGenerator<AgentEvent> {
  const signal = o.signal ?? new AbortController().signal;
  const maxRounds = o.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const outputChars = (o.toolOutputTokens ?? DEFAULT_TOOL_OUTPUT_TOKENS) * 4;
  // What the question names, resolved once per turn, so a model neither guesses a misspelt name nor answers about another service.
  const resolved = withResolved(o.system, o.question, o.window);
  o.messages.push({ role: 'user', text: o.question });
  yield { type: 'user_message', text: o.question };
  const system = o.window ? `${resolved}\n\n${windowInstruction(o.window)}` : resolved;
  const partial = (text: string) => {
    if (text) o.messages.push({ role: 'model', text, toolCalls: [], model: o.provider.name });
  };
  for (let round = 1; ; round++) {
    const lastRound = round > maxRounds;
    if (lastRound) yield { type: 'warning', message: `Reached max_tool_rounds (${maxRounds}): answering with what was found so far.` };
    let text = '';
    let blocked: string | null = null;
    const asked: ToolCall[] = [];
    try {
      // The last round keeps the tools defined (a history holding tool calls is only valid beside
      // them) and forbids calling them.
      for await (const chunk of o.provider.generate({
        system: lastRound ? `${system}\n\nYou may not call more tools: answer now with what you have, and say what is still unknown.` : system,
        messages: o.messages,
        tools: o.hub.tools(),
        toolChoice: lastRound ? 'none' : 'auto',
        round,
        window: o.window,
      }, signal)) {
        if (chunk.type === 'text') {
          text += chunk.text;
          yield { type: 'text_delta', text: chunk.text };
        } else if (chunk.type === 'tool_call') {
          asked.push(chunk.call);
        } else if (chunk.type === 'notice') {
          yield { type: 'warning', message: chunk.text };
        } else if (chunk.type === 'blocked') {
          blocked = chunk.reason;
        } else {
          yield { type: 'usage', inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens };
        }
      }
    } catch (err) {
      partial(text);
      if (signal.aborted) {
        yield { type: 'turn_end', reason: 'cancelled', model: o.provider.name };
        return;
      }
      yield { type: 'error', message: (err as Error).message };
      yield { type: 'turn_end', reason: 'error', model: o.provider.name };
      return;
    }
    if (signal.aborted) {
      partial(text);
      yield { type: 'turn_end', reason: 'cancelled', model: o.provider.name };
      return;
    }
    // On the last round tools may not be called: a model that asks anyway is not obeyed.
    const calls = lastRound || blocked ? [] : withUniqueIds(asked, o.messages);
    if (calls.length === 0 && (blocked || !text)) {
      // Recorded as a refusal, never as an empty message: that would make every later request invalid.
      const reason = blocked ?? 'empty answer';
      o.messages.push({ role: 'model', text, toolCalls: [], model: o.provider.name, blocked: reason });
      yield { type: 'warning', message: blocked ? `${o.provider.name} blocked its answer (${blocked}); rephrase the question or try another model.` : `${o.provider.name} returned an empty answer; ask again or try another model.` };
      yield { type: 'message_end', text };
      yield { type: 'turn_end', reason: blocked || !lastRound ? 'blocked' : 'max_rounds', model: o.provider.name };
      return;
    }
    o.messages.push({ role: 'model', text, toolCalls: calls, model: o.provider.name });
    if (calls.length === 0) {
      yield { type: 'message_end', text };
      yield { type: 'turn_end', reason: lastRound ? 'max_rounds' : 'answered', model: o.provider.name };
      return;
    }
    for (const c of calls) yield { type: 'tool_call_started', id: c.id, server: o.hub.serverOf(c.name), tool: c.name, args: c.args };
    // Run concurrently; report each as it finishes.
    const started = performance.now();
    const pending = new Map(calls.map((c) => [c.id, o.hub.call(c.id, c.name, c.args, { timeoutMs: o.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, signal }).then((r) => ({ r, ms: performance.now() - started }))]));
    const results = new Map<string, ToolResult>();
    while (pending.size > 0) {
      const { r, ms } = await Promise.race(pending.values());
      pending.delete(r.id);
      results.set(r.id, r);
      yield { type: 'tool_call_finished', id: r.id, tool: r.name, ok: r.ok, durationMs: Math.round(ms), text: r.text, structured: r.structured };
    }
    // Results in call order, each paired with its call; cut to the budget the model gets.
    o.messages.push({ role: 'tool', results: calls.map((c) => {
      const r = results.get(c.id) as ToolResult;
      return { ...r, text: truncate(r.text, outputChars) };
    }) });
    if (signal.aborted) {
      yield { type: 'turn_end', reason: 'cancelled', model: o.provider.name };
      return;
    }
  }
}
