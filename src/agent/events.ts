/**
 * The one contract between the agent engine and everything that shows or stores a turn: the
 * console, `coral ask --json` / `--stream`, the conversation file and the replay recorder.
 */
export type AgentEvent =
  | { type: 'user_message'; text: string }
  | { type: 'text_delta'; text: string }
  | { type: 'message_end'; text: string }
  | { type: 'tool_call_started'; id: string; server: string; tool: string; args: Record<string, unknown> }
  | { type: 'tool_call_finished'; id: string; tool: string; ok: boolean; durationMs: number; text: string; structured?: Record<string, unknown> }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'warning'; message: string }
  | { type: 'error'; message: string }
  /** `model` is the model that actually answered (a fallback's, when one took over). */
  | { type: 'turn_end'; reason: 'answered' | 'max_rounds' | 'blocked' | 'cancelled' | 'error'; model: string };

/** Provider-neutral conversation messages: tool calls and their results always travel in pairs. */
export interface ToolCall {
  /** Unique within the conversation: Anthropic and OpenAI reject a history that repeats one. */
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Opaque state that must travel back with the call (Gemini's thoughtSignature). */
  signature?: string;
}

export interface ToolResult {
  id: string;
  name: string;
  ok: boolean;
  text: string;
  /** Kept for programs (triage, UI); models see `text` only. */
  structured?: Record<string, unknown>;
}

export type Message =
  | { role: 'user'; text: string }
  /**
   * `model` names who wrote it (provider:model); `blocked` is set when the provider refused to
   * answer (e.g. SAFETY), so the history records a refusal rather than an empty message.
   */
  | { role: 'model'; text: string; toolCalls: ToolCall[]; model?: string; blocked?: string }
  | { role: 'tool'; results: ToolResult[] };
