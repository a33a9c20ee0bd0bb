import type { EngineEvent } from './engine-events.js';

/** One tool call as an export keeps it: its session number (what answers cite), arguments and full result. */
export interface CallRecord {
  n: number;
  tool: string;
  server: string;
  args: Record<string, unknown>;
  started: string;
  status: 'ok' | 'failed' | 'cancelled' | 'running';
  durationMs: number | null;
  result: string;
}

/** Where a question was asked and who answered it: the colony, its kind, the model. */
export interface Provenance {
  colony: string;
  source: string;
  model: string;
}

/** A question and what came of it, in the order it happened. */
export interface TurnRecord extends Provenance {
  question: string;
  asked: string;
  /** The model's words on the way (before its tool calls), in order. */
  said: string[];
  calls: CallRecord[];
  answer: string;
  /** How the turn ended; `open` when the export was taken while it ran. */
  ended: 'answered' | 'max_rounds' | 'blocked' | 'cancelled' | 'error' | 'open';
  warnings: string[];
  errors: string[];
  /** Calls run by hand (`:` commands, Enter on a service) after this turn and before the next question. */
  commands: CallRecord[];
}

export interface SessionRecord extends Provenance {
  exported: string;
  turns: TurnRecord[];
}

/**
 * The engine's event log read as a session (pure): questions in order, each with the calls it made
 * (in the order they started, whatever order they finished in), its answer whole, and the calls the user ran by
 * hand after it. Calls before the first question (the first look, startup) and the console's quiet
 * side calls are left out: an incident note starts with what was asked.
 */
export function sessionRecord(log: readonly { at: string; event: EngineEvent }[], now: Provenance, exported: string): SessionRecord {
  const turns: TurnRecord[] = [];
  const at: Partial<Provenance> = {};
  const calls = new Map<string, CallRecord>();
  let turn: TurnRecord | undefined;
  let open = false;
  let said = '';
  for (const { at: time, event: e } of log) {
    if (e.type === 'status') {
      for (const k of ['colony', 'source', 'model'] as const) if (e.patch[k] !== undefined) at[k] = e.patch[k];
      continue;
    }
    if (e.type === 'notice' && e.error && turn) turn.errors.push(e.text);
    if (e.type !== 'agent') continue;
    const ev = e.event;
    if (ev.type === 'user_message') {
      turn = { question: ev.text, asked: time, colony: at.colony ?? now.colony, source: at.source ?? now.source, model: at.model ?? now.model, said: [], calls: [], answer: '', ended: 'open', warnings: [], errors: [], commands: [] };
      turns.push(turn);
      open = true;
      said = '';
    } else if (ev.type === 'tool_call_started') {
      if (!turn || e.quiet || e.seq === undefined) continue;
      const c: CallRecord = { n: e.seq, tool: ev.tool, server: ev.server, args: ev.args, started: time, status: 'running', durationMs: null, result: '' };
      calls.set(ev.id, c);
      if (open) {
        if (said.trim()) turn.said.push(said.trim());
        said = '';
        turn.calls.push(c);
      } else turn.commands.push(c);
    } else if (ev.type === 'tool_call_finished') {
      const c = calls.get(ev.id);
      if (!c) continue;
      c.status = ev.ok ? 'ok' : /^cancel/i.test(ev.text) ? 'cancelled' : 'failed';
      c.durationMs = ev.durationMs;
      c.result = ev.text;
    } else if (!turn || !open) {
      continue;
    } else if (ev.type === 'text_delta') {
      said += ev.text;
    } else if (ev.type === 'message_end') {
      said = '';
      turn.answer = ev.text.trim();
    } else if (ev.type === 'warning') {
      turn.warnings.push(ev.message);
    } else if (ev.type === 'error') {
      turn.errors.push(ev.message);
    } else if (ev.type === 'turn_end') {
      // Words streamed but never ended (cancelled): the answer as far as it went.
      if (!turn.answer && said.trim()) turn.answer = said.trim();
      said = '';
      turn.ended = ev.reason;
      open = false;
    }
  }
  if (turn && open && !turn.answer && said.trim()) turn.answer = said.trim();
  return { ...now, exported, turns };
}

/** The record as JSON lines: the session, then per turn its question, calls, answer and commands, in order. */
export function sessionLines(r: SessionRecord): unknown[] {
  const lines: unknown[] = [{ type: 'session', colony: r.colony, source: r.source, model: r.model, exported: r.exported }];
  r.turns.forEach((t, i) => {
    const turn = i + 1;
    lines.push({ type: 'question', turn, text: t.question, asked: t.asked, colony: t.colony, source: t.source, model: t.model });
    for (const c of t.calls) lines.push({ type: 'call', turn, ...c });
    lines.push({ type: 'answer', turn, text: t.answer, ended: t.ended, said: t.said, warnings: t.warnings, errors: t.errors });
    for (const c of t.commands) lines.push({ type: 'command', turn, ...c });
  });
  return lines;
}
