/**
 * What the provider tests share: a colony with a little telemetry behind a real ToolHub, each
 * provider built against its strict fake, and the scripted 3-round investigation (summary; then
 * metrics and traces in parallel; then the answer).
 */
import type { AgentEvent, Message } from '../../src/agent/events.js';
import { runTurn } from '../../src/agent/loop.js';
import { AnthropicProvider } from '../../src/agent/providers/anthropic.js';
import { GeminiProvider } from '../../src/agent/providers/gemini.js';
import { OpenAIProvider } from '../../src/agent/providers/openai.js';
import type { ModelProvider } from '../../src/agent/providers/types.js';
import { systemPrompt } from '../../src/agent/prompt.js';
import { ToolHub } from '../../src/agent/toolhub.js';
import { createColonyServer } from '../../src/colony/server.js';
import type { ColonyStore } from '../../src/colony/store/store.js';
import { fixtureStore } from '../colony/store/fixture.js';
import { type FakeLlm, type ScriptedTurn, fakeAnthropic, fakeGemini, fakeOllama, fakeOpenAI } from '../support/fake-llm.js';
import { MIN, T0 } from '../support/otlp-json.js';

export type Kind = 'gemini' | 'openai' | 'anthropic' | 'ollama';
export const KINDS: Kind[] = ['gemini', 'openai', 'anthropic', 'ollama'];

export const W = { time_range: '10m' };
export const SYSTEM = systemPrompt({ now: new Date(Number(T0 / 1_000_000n)), services: ['checkout', 'payment'] });

/** Round 1: the summary. Round 2: metrics and traces at once. Round 3: the answer. */
export const INVESTIGATION: ScriptedTurn[] = [
  { text: ['Checking the summary.'], toolCalls: [{ name: 'coral_query_summary', args: W }] },
  { toolCalls: [{ name: 'coral_query_metrics', args: { service: 'payment', ...W } }, { name: 'coral_query_traces', args: { service: 'checkout', max_traces: 1, ...W } }] },
  { text: ['Finding: payment fails [2].'] },
];

export interface Harness {
  store: ColonyStore;
  hub: ToolHub;
  fakes: FakeLlm[];
  fake(kind: Kind, script: ScriptedTurn[]): Promise<FakeLlm>;
  close(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const store = await fixtureStore();
  const hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer({ store, now: () => T0 + 10n * MIN, maxResponseChars: 16_000 }) }]);
  const fakes: FakeLlm[] = [];
  return {
    store,
    hub,
    fakes,
    async fake(kind, script) {
      const f = await { gemini: fakeGemini, openai: fakeOpenAI, anthropic: fakeAnthropic, ollama: fakeOllama }[kind](script);
      fakes.push(f);
      return f;
    },
    async close() {
      await hub.close();
      await store.close();
      for (const f of fakes) await f.close();
    },
  };
}

/** A provider of this kind against its fake, without SDK retries (tests script failures exactly). */
export function provider(kind: Kind, f: FakeLlm, extra: { retryBaseMs?: number; maxAttempts?: number; contextTokens?: number } = {}): ModelProvider {
  switch (kind) {
    case 'gemini':
      return new GeminiProvider({ model: 'gemini-test', apiKey: 'k', key: { source: 'GEMINI_API_KEY', configKey: 'ai.ask.api_keys.google' }, baseUrl: f.url, maxAttempts: extra.maxAttempts ?? 1, retryBaseMs: extra.retryBaseMs ?? 10 });
    case 'openai':
      return new OpenAIProvider({ provider: 'openai', model: 'gpt-fake', apiKey: 'k', key: { source: 'OPENAI_API_KEY', configKey: 'ai.ask.api_keys.openai' }, baseUrl: `${f.url}/v1`, maxRetries: 0 });
    case 'ollama':
      return new OpenAIProvider({ provider: 'ollama', model: 'llama-fake', apiKey: 'ollama', baseUrl: `${f.url}/v1`, maxRetries: 0, contextTokens: extra.contextTokens ?? 1_000_000 });
    case 'anthropic':
      return new AnthropicProvider({ model: 'claude-fake', apiKey: 'k', key: { source: 'ANTHROPIC_API_KEY', configKey: 'ai.ask.api_keys.anthropic' }, baseUrl: f.url, maxRetries: 0, maxAttempts: extra.maxAttempts ?? 3, retryBaseMs: extra.retryBaseMs ?? 10 });
  }
}

export async function turn(h: Harness, p: ModelProvider, question: string, opts: { messages?: Message[]; maxToolRounds?: number } = {}) {
  const messages = opts.messages ?? [];
  const events: AgentEvent[] = [];
  for await (const ev of runTurn({ provider: p, hub: h.hub, system: SYSTEM, messages, question, maxToolRounds: opts.maxToolRounds })) events.push(ev);
  const answer = events.find((e) => e.type === 'message_end');
  return { events, messages, answer: answer?.type === 'message_end' ? answer.text : null, end: events.at(-1), warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])), error: events.find((e) => e.type === 'error') };
}

/** Every tool-call id of the conversation. */
export const callIds = (messages: Message[]) => messages.flatMap((m) => (m.role === 'model' ? m.toolCalls.map((c) => c.id) : []));
