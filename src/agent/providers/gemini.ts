import { type Content, GoogleGenAI, type Part } from '@google/genai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from '../events.js';
import { type ModelChunk, type ModelProvider, type ModelRequest, ProviderError, type ToolSpec } from './types.js';

/**
 * The Gemini API through @google/genai: streaming, function calling with call ids, retries on
 * 429/5xx before anything was streamed. Parts are read directly: the SDK's `.text` getter warns on
 * function-call responses, which would corrupt a full-screen terminal.
 */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Removes what the Gemini API rejects from a JSON Schema: `$schema`, and zod's +/-2^53 integer bounds. */
export function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema') continue;
    if ((k === 'minimum' || k === 'maximum' || k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'number' && Math.abs(v) >= MAX_SAFE) continue;
    out[k] = cleanSchema(v);
  }
  return out;
}

export function toContents(messages: Message[]): Content[] {
  return messages.map((m): Content => {
    if (m.role === 'user') return { role: 'user', parts: [{ text: m.text }] };
    if (m.role === 'model') {
      const parts: Part[] = [];
      if (m.text) parts.push({ text: m.text });
      for (const c of m.toolCalls) parts.push({ functionCall: { id: c.id, name: c.name, args: c.args } });
      return { role: 'model', parts };
    }
    return { role: 'user', parts: m.results.map((r) => ({ functionResponse: { id: r.id, name: r.name, response: r.ok ? { output: r.text } : { error: r.text } } })) };
  });
}

function declarations(tools: ToolSpec[]) {
  return tools.length === 0 ? undefined : [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: cleanSchema(t.parameters) })) }];
}

export interface GeminiOptions {
  model: string;
  apiKey: string;
  /** A compatible endpoint (tests point this at a local fake). */
  baseUrl?: string;
  maxAttempts?: number;
}

export class GeminiProvider implements ModelProvider {
  readonly name: string;
  readonly cloud = true;
  private readonly ai: GoogleGenAI;

  constructor(private readonly opts: GeminiOptions) {
    this.name = `google:${opts.model}`;
    this.ai = new GoogleGenAI({ apiKey: opts.apiKey, ...(opts.baseUrl ? { httpOptions: { baseUrl: opts.baseUrl } } : {}) });
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const attempts = this.opts.maxAttempts ?? 3;
    let callSeq = 0;
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        const stream = await this.ai.models.generateContentStream({
          model: this.opts.model,
          contents: toContents(req.messages),
          config: { systemInstruction: req.system, tools: declarations(req.tools), abortSignal: signal },
        });
        let usage: { inputTokens: number; outputTokens: number } | null = null;
        for await (const chunk of stream) {
          for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
            if (part.text && !part.thought) {
              yielded = true;
              yield { type: 'text', text: part.text };
            }
            if (part.functionCall?.name) {
              yielded = true;
              yield { type: 'tool_call', call: { id: part.functionCall.id ?? `call-${++callSeq}`, name: part.functionCall.name, args: part.functionCall.args ?? {} } };
            }
          }
          const u = chunk.usageMetadata;
          if (u) usage = { inputTokens: u.promptTokenCount ?? 0, outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0) };
        }
        if (usage) yield { type: 'usage', ...usage };
        return;
      } catch (err) {
        if (signal.aborted) throw err;
        const status = (err as { status?: number }).status ?? 0;
        const retryable = status === 429 || status >= 500 || status === 0;
        if (!yielded && retryable && attempt < attempts) {
          await sleep(300 * 2 ** (attempt - 1), undefined, { signal });
          continue;
        }
        throw new ProviderError(`${this.name}: ${(err as Error).message.slice(0, 300)}`);
      }
    }
  }
}
