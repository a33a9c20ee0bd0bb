import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '../events.js';
import { type ModelChunk, type ModelProvider, type ModelRequest, ProviderError } from './types.js';

/** Anthropic messages API: streaming text and tool_use blocks. */
export interface AnthropicOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
  maxTokens?: number;
}

function toMessages(messages: Message[]): Anthropic.MessageParam[] {
  return messages.map((m): Anthropic.MessageParam => {
    if (m.role === 'user') return { role: 'user', content: m.text };
    if (m.role === 'model') {
      const content: Anthropic.ContentBlockParam[] = [];
      if (m.text) content.push({ type: 'text', text: m.text });
      for (const c of m.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
      return { role: 'assistant', content };
    }
    return { role: 'user', content: m.results.map((r) => ({ type: 'tool_result' as const, tool_use_id: r.id, content: r.text, is_error: !r.ok })) };
  });
}

export class AnthropicProvider implements ModelProvider {
  readonly name: string;
  readonly cloud = true;
  private readonly client: Anthropic;

  constructor(private readonly opts: AnthropicOptions) {
    this.name = `anthropic:${opts.model}`;
    this.client = new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 2 });
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    let stream;
    try {
      stream = await this.client.messages.create({
        model: this.opts.model,
        max_tokens: this.opts.maxTokens ?? 4096,
        system: req.system,
        messages: toMessages(req.messages),
        stream: true,
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema })) } : {}),
      }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new ProviderError(`${this.name}: ${(err as Error).message.slice(0, 300)}`);
    }
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    let input = 0;
    let output = 0;
    for await (const ev of stream) {
      if (ev.type === 'message_start') input = ev.message.usage.input_tokens;
      else if (ev.type === 'content_block_start' && ev.content_block.type === 'tool_use') blocks.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
      else if (ev.type === 'content_block_delta') {
        if (ev.delta.type === 'text_delta') yield { type: 'text', text: ev.delta.text };
        else if (ev.delta.type === 'input_json_delta') {
          const b = blocks.get(ev.index);
          if (b) b.json += ev.delta.partial_json;
        }
      } else if (ev.type === 'message_delta') output = ev.usage.output_tokens;
    }
    for (const b of blocks.values()) {
      let args: Record<string, unknown> = {};
      try {
        args = b.json ? (JSON.parse(b.json) as Record<string, unknown>) : {};
      } catch {
        args = { _unparsed_arguments: b.json };
      }
      yield { type: 'tool_call', call: { id: b.id, name: b.name, args } };
    }
    yield { type: 'usage', inputTokens: input, outputTokens: output };
  }
}
