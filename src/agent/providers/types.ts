import type { AskWindow } from '../ask-window.js';
import type { Message, ToolCall } from '../events.js';

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  /** Always the full tool list: a history with tool calls is only valid beside tool definitions. */
  tools: ToolSpec[];
  /** 'none' on the forced final round: the tools stay defined but may not be called. */
  toolChoice?: 'auto' | 'none';
  /** 1 for the first model request of a turn (a fallback chain starts over from its primary). */
  round?: number;
  /** The window the user chose for this turn (flags or the question's words); absent means the tools' default. */
  window?: AskWindow;
}

export type ModelChunk =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  /** Something the user should know (a fallback model took over). */
  | { type: 'notice'; text: string }
  /** The provider refused to answer (Gemini SAFETY, OpenAI content_filter, Anthropic refusal). */
  | { type: 'blocked'; reason: string };

/** A model behind one API. `provider:model` names it, e.g. google:gemini-2.5-flash. */
export interface ModelProvider {
  readonly name: string;
  /** Sends data off this machine (a cloud API): the user is asked once per provider. */
  readonly cloud: boolean;
  generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk>;
}

/** A model API failed for good (after its own retries): the next fallback model may take over. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}
