import { readFileSync } from 'node:fs';
import { CoralError } from '../../core/errors.js';
import type { Message } from '../events.js';
import { sameQuestion } from '../question.js';
import type { ModelChunk, ModelProvider, ModelRequest } from './types.js';

/**
 * Plays a recorded investigation's model turns while the tool calls run for real. The recording
 * holds, per round, what the model said and which tools it called; the loop does the rest.
 */
export interface RecordedRound {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
}

export interface RecordedSession {
  /** The model the session was recorded with, or "hand-written". */
  recordedWith: string;
  scenario?: string;
  question: string;
  rounds: RecordedRound[];
}

export function readSession(path: string): RecordedSession {
  let s: RecordedSession;
  try {
    s = JSON.parse(readFileSync(path, 'utf8')) as RecordedSession;
  } catch (err) {
    throw new CoralError(`Cannot read the recorded session ${path}: ${(err as Error).message}`, 'Record one with coral ask --record FILE, or use replay:<scenario> for a bundled one.');
  }
  if (!Array.isArray(s.rounds) || s.rounds.length === 0) throw new CoralError(`${path} holds no rounds.`, 'A session file has {"question", "rounds": [{"text", "toolCalls"}]}.');
  return s;
}

/** Chunks of a few words, so a replay streams like a live model. */
function* words(text: string): Generator<string> {
  const parts = text.match(/\S+\s*/g) ?? [];
  for (let i = 0; i < parts.length; i += 4) yield parts.slice(i, i + 4).join('');
}

/**
 * A recording answers only its own question: any other question goes to `otherwise` (the automatic
 * triage), and the chat says which of the two answered.
 */
export class ReplayProvider implements ModelProvider {
  readonly cloud = false;

  constructor(
    readonly name: string,
    private readonly session: RecordedSession,
    private readonly otherwise?: ModelProvider,
  ) {}

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    // Which round: how many model messages this turn already has.
    const lastUser = req.messages.map((m) => m.role).lastIndexOf('user');
    const asked = req.messages[lastUser];
    const round = req.messages.slice(lastUser + 1).filter((m: Message) => m.role === 'model').length;
    if (this.otherwise && asked?.role === 'user' && !sameQuestion(asked.text, this.session.question)) {
      if (round === 0) yield { type: 'notice', text: `Not the recorded question ("${this.session.question}"): ${this.otherwise.name === 'triage:automatic' ? 'the automatic triage (no model configured)' : this.otherwise.name} answers it.` };
      yield* this.otherwise.generate(req, signal);
      return;
    }
    if (round === 0) yield { type: 'notice', text: `Answering with the recorded investigation ${this.name} (${this.session.recordedWith}); its tool calls run for real.` };
    const r = this.session.rounds[Math.min(round, this.session.rounds.length - 1)];
    for (const w of words(r.text ?? '')) {
      if (signal.aborted) return;
      yield { type: 'text', text: w };
    }
    // Past the recording, or when the loop withholds tools (its last round), only text is played.
    if (round >= this.session.rounds.length || req.toolChoice === 'none') return;
    // Ids unique in the conversation (the user message's index differs in every turn).
    let n = 0;
    for (const c of r.toolCalls ?? []) yield { type: 'tool_call', call: { id: `replay-${lastUser}-${round}-${++n}`, name: c.name, args: c.args } };
  }
}
