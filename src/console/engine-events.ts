import type { AgentEvent } from '../agent/events.js';

/** What the console's engine tells the UI (and what a session export records). */
export type EngineEvent =
  /**
   * `seq`: a tool call's number in this session, in the order calls start (what answers cite).
   * `quiet`: a call the console made on the side: its result fills its tab without showing it.
   * `newest`: the result is about a demo's newest minutes only, this many (its hour is still loading).
   */
  | { type: 'agent'; event: AgentEvent; seq?: number; quiet?: boolean; newest?: number }
  /** A live view's query asked again, with a different result (never logged: it repeats). */
  | { type: 'refresh'; tool: string; args: Record<string, unknown>; structured: Record<string, unknown> }
  | { type: 'status'; patch: { colony?: string; source?: string; model?: string; loading?: number | null; message?: string | null; live?: 'on' | 'paused' | null } }
  | { type: 'notice'; text: string; error?: boolean }
  /** `:chart`: a chart of these signals of the service opens; its calls' results fill it. */
  | { type: 'chart'; service: string; signals: string[] }
  /** What waits to run, in order, as the chat shows it (never logged: the turns themselves are). */
  | { type: 'queue'; items: string[] }
  | { type: 'clear' }
  | { type: 'help' };
