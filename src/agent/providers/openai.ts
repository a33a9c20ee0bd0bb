import type OpenAI from 'openai';
import type { Message } from '../events.js';
import { type KeyOrigin, apiMessage, providerFailure } from './errors.js';
import { modelText } from './history.js';
import { ToolCallAssembler } from './tool-call-stream.js';
import { type ModelChunk, type ModelProvider, type ModelRequest, ProviderError } from './types.js';

/**
 * OpenAI chat completions, and every server that speaks them: Ollama at localhost:11434 for
 * air-gapped use. Streaming with tool calls assembled from their deltas.
 */
export interface OpenAIOptions {
  provider: 'openai' | 'ollama';
  model: string;
  apiKey: string;
  key?: KeyOrigin;
  baseUrl?: string;
  /** The SDK's own retries of a failed request (429, 5xx, connection errors). */
  maxRetries?: number;
  /**
   * Ollama's context in tokens. Its OpenAI-compatible API cannot set num_ctx per request (Ollama
   * docs: "OpenAI compatibility", context size), and Ollama cuts a longer prompt silently: the
   * user is warned instead. Defaults to OLLAMA_CONTEXT_LENGTH, else Ollama's default of 4096.
   */
  contextTokens?: number;
}

export const OLLAMA_URL = 'http://localhost:11434/v1';
export const OLLAMA_DEFAULT_CONTEXT = 4096;

function toMessages(system: string, messages: Message[]): OpenAI.Chat.ChatCompletionMessageParam[] {
  const out: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'model') {
      out.push({
        role: 'assistant',
        // content may be null only beside tool_calls.
        content: modelText(m) || null,
        ...(m.toolCalls.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}),
      });
    } else for (const r of m.results) out.push({ role: 'tool', tool_call_id: r.id, content: r.ok ? r.text : `ERROR: ${r.text}` });
  }
  return out;
}

/** Rough prompt size: about 4 characters a token. */
const estimateTokens = (...parts: unknown[]) => Math.ceil(JSON.stringify(parts).length / 4);

export class OpenAIProvider implements ModelProvider {
  readonly name: string;
  readonly cloud: boolean;
  /** The SDK loads on the first request, not with the console (it is megabytes of JavaScript). */
  private client: Promise<OpenAI> | null = null;
  private sdk: typeof OpenAI | null = null;
  private readonly baseUrl: string;
  /** Warned this turn that the prompt outgrew Ollama's context (once a turn is enough). */
  private warnedContext = false;

  constructor(private readonly opts: OpenAIOptions) {
    this.name = `${opts.provider}:${opts.model}`;
    this.cloud = opts.provider === 'openai' && !opts.baseUrl?.includes('localhost') && !opts.baseUrl?.includes('127.0.0.1');
    this.baseUrl = opts.baseUrl ?? (opts.provider === 'ollama' ? OLLAMA_URL : 'https://api.openai.com/v1');
  }

  private openai(): Promise<OpenAI> {
    this.client ??= import('openai').then((m) => {
      this.sdk = m.default;
      return new m.default({ apiKey: this.opts.apiKey, baseURL: this.baseUrl, maxRetries: this.opts.maxRetries ?? 2 });
    });
    return this.client;
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const messages = toMessages(req.system, req.messages);
    const tools = req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
    if ((req.round ?? 1) === 1) this.warnedContext = false;
    if (this.opts.provider === 'ollama' && !this.warnedContext) {
      const limit = this.opts.contextTokens ?? OLLAMA_DEFAULT_CONTEXT;
      const size = estimateTokens(messages, tools);
      if (size > limit) {
        this.warnedContext = true;
        yield { type: 'notice', text: `The prompt is about ${size} tokens, more than Ollama's context of ${limit} tokens, and Ollama cuts longer prompts silently. Start Ollama with a larger context (OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or PARAMETER num_ctx in a Modelfile) and export the same OLLAMA_CONTEXT_LENGTH to coral.` };
      }
    }
    let stream;
    try {
      stream = await (await this.openai()).chat.completions.create({
        model: this.opts.model,
        messages,
        stream: true,
        stream_options: { include_usage: true },
        ...(tools.length ? { tools, ...(req.toolChoice === 'none' ? { tool_choice: 'none' as const } : {}) } : {}),
      }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw this.failure(err);
    }
    const calls = new ToolCallAssembler();
    let blocked: string | null = null;
    try {
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const delta = choice?.delta;
        if (delta?.content) yield { type: 'text', text: delta.content };
        for (const tc of delta?.tool_calls ?? []) calls.add(tc);
        // finish_reason "content_filter": "content was omitted due to a flag from our content filters".
        if (choice?.finish_reason === 'content_filter') blocked = 'content_filter';
        if (delta?.refusal) blocked = 'refusal';
        if (chunk.usage) yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      }
    } catch (err) {
      if (signal.aborted) throw err;
      throw this.failure(err);
    }
    for (const call of calls.done()) yield { type: 'tool_call', call };
    if (blocked) yield { type: 'blocked', reason: blocked };
  }

  private failure(err: unknown): ProviderError {
    const status = (err as { status?: number }).status ?? 0;
    const raw = (err as Error).message;
    if (this.opts.provider === 'ollama') {
      if (this.sdk && err instanceof this.sdk.APIConnectionError) {
        const cause = (err.cause as Error | undefined)?.message;
        return new ProviderError(`${this.name}: cannot reach Ollama at ${this.baseUrl}${cause ? ` (${cause})` : ''}. Start it with \`ollama serve\`, or set OLLAMA_BASE_URL to where it runs, ending in /v1 (e.g. http://gpu-box:11434/v1).`);
      }
      if (status === 404) {
        const msg = apiMessage(raw);
        const hint = /model .*not found/i.test(msg) ? `Pull it first: ollama pull ${this.opts.model}.` : `Is ${this.baseUrl} Ollama's OpenAI-compatible API? OLLAMA_BASE_URL must end in /v1.`;
        return new ProviderError(`${this.name}: HTTP 404: ${msg}. ${hint}`);
      }
    }
    return providerFailure(this.name, status, raw, this.opts.key);
  }
}
