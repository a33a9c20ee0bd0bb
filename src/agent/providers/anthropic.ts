import type Anthropic from '@anthropic-ai/sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from '../events.js';
import { type KeyOrigin, providerFailure } from './errors.js';
import { modelText } from './history.js';
import { retryDecision } from './retry.js';
import { draft2020Schema } from './schema.js';
import { type ModelChunk, type ModelProvider, type ModelRequest, type ToolSpec } from './types.js';

/** Anthropic messages API: streaming text and tool_use blocks. */
export interface AnthropicOptions {
  model: string;
  apiKey: string;
  key?: KeyOrigin;
  baseUrl?: string;
  /** The SDK's own retries of a failed request (429, 5xx, connection errors). */
  maxRetries?: number;
  maxTokens?: number;
  /** Attempts when a stream fails before saying anything (the SDK retries failed requests itself). */
  maxAttempts?: number;
  retryBaseMs?: number;
}

function toMessages(messages: Message[]): Anthropic.MessageParam[] {
  return messages.map((m): Anthropic.MessageParam => {
    if (m.role === 'user') return { role: 'user', content: m.text };
    if (m.role === 'model') {
      const content: Anthropic.ContentBlockParam[] = [];
      // Text blocks must be non-empty; an assistant message needs at least one block.
      const text = modelText(m);
      if (text) content.push({ type: 'text', text });
      for (const c of m.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
      return { role: 'assistant', content };
    }
    return { role: 'user', content: m.results.map((r) => ({ type: 'tool_result' as const, tool_use_id: r.id, content: r.text, is_error: !r.ok })) };
  });
}

/** Tool schemas in draft 2020-12, the JSON Schema dialect `input_schema` is documented in. */
const toTools = (tools: ToolSpec[]): Anthropic.Tool[] => tools.map((t) => ({ name: t.name, description: t.description, input_schema: draft2020Schema(t.parameters) as Anthropic.Tool.InputSchema }));

/** A stream that failed mid-way with Anthropic's `event: error` (overloaded_error, api_error): a 529/500 in disguise. */
function streamErrorStatus(err: unknown): number {
  const e = err as { status?: number; type?: string; error?: { error?: { type?: string } } };
  if (e.status) return e.status;
  const type = e.type ?? e.error?.error?.type;
  return type === 'overloaded_error' ? 529 : type === 'api_error' ? 500 : type === 'rate_limit_error' ? 429 : 0;
}

export class AnthropicProvider implements ModelProvider {
  readonly name: string;
  readonly cloud = true;
  /** The SDK loads on the first request, not with the console (it is megabytes of JavaScript). */
  private client: Promise<Anthropic> | null = null;

  constructor(private readonly opts: AnthropicOptions) {
    this.name = `anthropic:${opts.model}`;
  }

  private anthropic(): Promise<Anthropic> {
    this.client ??= import('@anthropic-ai/sdk').then((m) => new m.default({ apiKey: this.opts.apiKey, baseURL: this.opts.baseUrl, maxRetries: this.opts.maxRetries ?? 2 }));
    return this.client;
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const maxAttempts = this.opts.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        const stream = await (await this.anthropic()).messages.create({
          model: this.opts.model,
          max_tokens: this.opts.maxTokens ?? 4096,
          system: req.system,
          messages: toMessages(req.messages),
          stream: true,
          // "Requests which include tool_use or tool_result blocks must define tools": the forced
          // final round keeps them and forbids their use with tool_choice none.
          ...(req.tools.length ? { tools: toTools(req.tools), ...(req.toolChoice === 'none' ? { tool_choice: { type: 'none' as const } } : {}) } : {}),
        }, { signal });
        const blocks = new Map<number, { id: string; name: string; json: string }>();
        let input = 0;
        let output = 0;
        let stop: string | null = null;
        for await (const ev of stream) {
          if (ev.type === 'message_start') input = ev.message.usage.input_tokens;
          else if (ev.type === 'content_block_start' && ev.content_block.type === 'tool_use') blocks.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
          else if (ev.type === 'content_block_delta') {
            if (ev.delta.type === 'text_delta') {
              yielded = true;
              yield { type: 'text', text: ev.delta.text };
            } else if (ev.delta.type === 'input_json_delta') {
              const b = blocks.get(ev.index);
              if (b) b.json += ev.delta.partial_json;
            }
          } else if (ev.type === 'message_delta') {
            output = ev.usage.output_tokens;
            stop = ev.delta.stop_reason;
          }
        }
        yielded = true;
        for (const b of blocks.values()) {
          let args: Record<string, unknown> = {};
          try {
            args = b.json ? (JSON.parse(b.json) as Record<string, unknown>) : {};
          } catch {
            args = { _unparsed_arguments: b.json };
          }
          yield { type: 'tool_call', call: { id: b.id, name: b.name, args } };
        }
        // stop_reason "refusal": Claude declined for safety reasons (docs: handling stop reasons).
        if (stop === 'refusal') yield { type: 'blocked', reason: 'refusal' };
        yield { type: 'usage', inputTokens: input, outputTokens: output };
        return;
      } catch (err) {
        if (signal.aborted) throw err;
        const status = streamErrorStatus(err);
        // A stream can start with 200 and then send `event: error` (overloaded): retried like a
        // 529 when nothing reached the user yet. HTTP failures were already retried by the SDK.
        const midStream = (err as { status?: number }).status === undefined && status > 0;
        const d = yielded || !midStream ? { retry: false as const } : retryDecision({ status, attempt, maxAttempts, askedMs: null, baseMs: this.opts.retryBaseMs });
        if (d.retry) {
          await sleep(d.delayMs, undefined, { signal });
          continue;
        }
        throw providerFailure(this.name, status, (err as Error).message, this.opts.key);
      }
    }
  }
}
