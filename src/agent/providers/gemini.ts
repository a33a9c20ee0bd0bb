import type { Content, FunctionCallingConfigMode, GoogleGenAI, Part } from '@google/genai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from '../events.js';
import { type KeyOrigin, providerFailure } from './errors.js';
import { modelText } from './history.js';
import { parseRetryAfter, parseRetryInfo, retryDecision } from './retry.js';
import { geminiSchema } from './schema.js';
import type { ModelChunk, ModelProvider, ModelRequest, ToolSpec } from './types.js';

/**
 * The Gemini API through @google/genai: streaming, function calling, retries on 429/5xx before
 * anything was streamed. Parts are read directly: the SDK's `.text` getter warns on function-call
 * responses, which would corrupt a full-screen terminal.
 */

/**
 * Google documents this value for function calls Gemini did not write itself (another model's, in
 * a conversation switched by fallback or --continue): "skip_thought_signature_validator" passes the
 * signature check that Gemini 3 applies to every function call of the current turn
 * (ai.google.dev/gemini-api/docs/thought-signatures).
 */
export const FOREIGN_CALL_SIGNATURE = 'skip_thought_signature_validator';

/** Finish reasons meaning the answer was withheld (ai.google.dev/api/generate-content#FinishReason). */
const BLOCKING = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

export function toContents(messages: Message[]): Content[] {
  return messages.map((m): Content => {
    if (m.role === 'user') return { role: 'user', parts: [{ text: m.text }] };
    if (m.role === 'model') {
      const parts: Part[] = [];
      const text = modelText(m);
      if (text) parts.push({ text });
      // "Return the entire response with all parts, signatures included, in their original order":
      // with parallel calls only the first carries the signature, and it must come back on that part.
      const signed = m.toolCalls.some((c) => c.signature);
      m.toolCalls.forEach((c, i) => {
        const signature = c.signature ?? (!signed && i === 0 ? FOREIGN_CALL_SIGNATURE : undefined);
        parts.push({ functionCall: { id: c.id, name: c.name, args: c.args }, ...(signature ? { thoughtSignature: signature } : {}) });
      });
      return { role: 'model', parts };
    }
    return { role: 'user', parts: m.results.map((r) => ({ functionResponse: { id: r.id, name: r.name, response: r.ok ? { output: r.text } : { error: r.text } } })) };
  });
}

function declarations(tools: ToolSpec[]) {
  return tools.length === 0 ? undefined : [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: geminiSchema(t.parameters) })) }];
}

export interface GeminiOptions {
  model: string;
  apiKey: string;
  /** Where the key came from, named when the API rejects it. */
  key?: KeyOrigin;
  /** A compatible endpoint (tests point this at a local fake). */
  baseUrl?: string;
  maxAttempts?: number;
  /** The longest wait before a retry; a server asking for longer fails at once. */
  retryCapMs?: number;
  /** The first backoff when the server says nothing (doubles each attempt). */
  retryBaseMs?: number;
}

export class GeminiProvider implements ModelProvider {
  readonly name: string;
  readonly cloud = true;
  /** The SDK loads on the first request, not with the console (it is megabytes of JavaScript). */
  private ai: Promise<GoogleGenAI> | null = null;
  /** The last HTTP response's Retry-After, which @google/genai's ApiError does not carry. */
  private retryAfter: string | null = null;

  constructor(private readonly opts: GeminiOptions) {
    this.name = `google:${opts.model}`;
  }

  private readonly recordingFetch: typeof fetch = async (input, init) => {
    const r = await fetch(input, init);
    this.retryAfter = r.ok ? null : r.headers.get('retry-after');
    return r;
  };

  private client(): Promise<GoogleGenAI> {
    this.ai ??= import('@google/genai').then((m) => new m.GoogleGenAI({ apiKey: this.opts.apiKey, httpOptions: { fetch: this.recordingFetch, ...(this.opts.baseUrl ? { baseUrl: this.opts.baseUrl } : {}) } }));
    return this.ai;
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const maxAttempts = this.opts.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        const stream = await (await this.client()).models.generateContentStream({
          model: this.opts.model,
          contents: toContents(req.messages),
          config: {
            systemInstruction: req.system,
            tools: declarations(req.tools),
            ...(req.toolChoice === 'none' && req.tools.length ? { toolConfig: { functionCallingConfig: { mode: 'NONE' as FunctionCallingConfigMode } } } : {}),
            abortSignal: signal,
          },
        });
        let usage: { inputTokens: number; outputTokens: number } | null = null;
        let blocked: string | null = null;
        for await (const chunk of stream) {
          const candidate = chunk.candidates?.[0];
          for (const part of candidate?.content?.parts ?? []) {
            if (part.text && !part.thought) {
              yielded = true;
              yield { type: 'text', text: part.text };
            }
            if (part.functionCall?.name) {
              yielded = true;
              // Ids are optional in Gemini's answer; the loop gives each call one unique in the conversation.
              yield { type: 'tool_call', call: { id: part.functionCall.id ?? '', name: part.functionCall.name, args: part.functionCall.args ?? {}, ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}) } };
            }
          }
          const reason = candidate?.finishReason ?? chunk.promptFeedback?.blockReason;
          if (reason && BLOCKING.has(String(reason))) blocked = String(reason);
          else if (chunk.promptFeedback?.blockReason) blocked = String(chunk.promptFeedback.blockReason);
          const u = chunk.usageMetadata;
          if (u) usage = { inputTokens: u.promptTokenCount ?? 0, outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0) };
        }
        if (blocked) yield { type: 'blocked', reason: blocked };
        if (usage) yield { type: 'usage', ...usage };
        return;
      } catch (err) {
        if (signal.aborted) throw err;
        const status = (err as { status?: number }).status ?? 0;
        const raw = (err as Error).message;
        // 429 answers carry RetryInfo in the body ("retryDelay": "37s"), sometimes Retry-After too.
        const asked = parseRetryAfter(this.retryAfter) ?? parseRetryInfo(raw);
        const d = yielded ? { retry: false as const } : retryDecision({ status, attempt, maxAttempts, askedMs: asked, capMs: this.opts.retryCapMs, baseMs: this.opts.retryBaseMs });
        if (d.retry) {
          await sleep(d.delayMs, undefined, { signal });
          continue;
        }
        const failure = providerFailure(this.name, status, raw, this.opts.key);
        if ('reason' in d && d.reason) failure.message += ` (${d.reason})`;
        throw failure;
      }
    }
  }
}
