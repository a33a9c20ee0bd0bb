import OpenAI from 'openai';
import type { Message } from '../events.js';
import { type ModelChunk, type ModelProvider, type ModelRequest, ProviderError } from './types.js';

/**
 * OpenAI chat completions, and every server that speaks them: Ollama at localhost:11434 for
 * air-gapped use. Streaming with tool calls assembled from their deltas.
 */
export interface OpenAIOptions {
  provider: 'openai' | 'ollama';
  model: string;
  apiKey: string;
  baseUrl?: string;
}

export const OLLAMA_URL = 'http://localhost:11434/v1';

function toMessages(system: string, messages: Message[]): OpenAI.Chat.ChatCompletionMessageParam[] {
  const out: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'model') {
      out.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}),
      });
    } else for (const r of m.results) out.push({ role: 'tool', tool_call_id: r.id, content: r.ok ? r.text : `ERROR: ${r.text}` });
  }
  return out;
}

export class OpenAIProvider implements ModelProvider {
  readonly name: string;
  readonly cloud: boolean;
  private readonly client: OpenAI;

  constructor(private readonly opts: OpenAIOptions) {
    this.name = `${opts.provider}:${opts.model}`;
    this.cloud = opts.provider === 'openai' && !opts.baseUrl?.includes('localhost') && !opts.baseUrl?.includes('127.0.0.1');
    this.client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl ?? (opts.provider === 'ollama' ? OLLAMA_URL : undefined), maxRetries: 2 });
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    let stream;
    try {
      stream = await this.client.chat.completions.create({
        model: this.opts.model,
        messages: toMessages(req.system, req.messages),
        stream: true,
        stream_options: { include_usage: true },
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })) } : {}),
      }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new ProviderError(`${this.name}: ${(err as Error).message.slice(0, 300)}`);
    }
    const calls = new Map<number, { id: string; name: string; args: string }>();
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) yield { type: 'text', text: delta.content };
      for (const tc of delta?.tool_calls ?? []) {
        const c = calls.get(tc.index) ?? { id: '', name: '', args: '' };
        c.id ||= tc.id ?? '';
        c.name += tc.function?.name ?? '';
        c.args += tc.function?.arguments ?? '';
        calls.set(tc.index, c);
      }
      if (chunk.usage) yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    }
    for (const [i, c] of [...calls].sort((a, b) => a[0] - b[0])) {
      let args: Record<string, unknown> = {};
      try {
        args = c.args ? (JSON.parse(c.args) as Record<string, unknown>) : {};
      } catch {
        args = { _unparsed_arguments: c.args };
      }
      yield { type: 'tool_call', call: { id: c.id || `call-${i}`, name: c.name, args } };
    }
  }
}
