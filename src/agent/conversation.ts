import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CoralError } from '../core/errors.js';
import { withFileLock } from '../core/file-lock.js';
import { coralHome } from '../core/paths.js';
import { privateDir, writePrivateFile } from '../core/private-files.js';
import { withUniqueIds } from './call-ids.js';
import type { Message } from './events.js';

/**
 * Conversations under ~/.coral/conversations/, one JSON file each, written atomically (a crash
 * never leaves a half-written file), tool calls always paired with their results. Several
 * `coral ask --resume` may finish at once: a turn is appended to the file as it is then, under a
 * lock, never written over it from a copy read before (see appendTurn).
 */
export interface Conversation {
  id: string;
  createdAt: string;
  updatedAt: string;
  model: string;
  colony: string;
  messages: Message[];
}

export function conversationsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(coralHome(env), 'conversations');
}

export function newConversation(model: string, colony: string): Conversation {
  const now = new Date().toISOString();
  return { id: `${now.slice(0, 10)}-${randomUUID().slice(0, 8)}`, createdAt: now, updatedAt: now, model, colony, messages: [] };
}

/** File names, not paths: no separator, no "..", nothing a shell or a file system reads specially. */
const CONVERSATION_ID = /^[A-Za-z0-9][\w.-]{0,127}$/;

function checkedPath(id: string, env: NodeJS.ProcessEnv): string {
  if (!CONVERSATION_ID.test(id) || id.includes('..')) {
    throw new CoralError(`"${id.slice(0, 80)}" is not a conversation id.`, 'Ids are letters, digits, dots, dashes and underscores, e.g. 2026-11-26-1a2b3c4d.');
  }
  return join(conversationsDir(env), `${id}.json`);
}

/**
 * A turn's messages with tool-call ids unique beside `history` (a turn run beside another on the same
 * conversation saw neither's calls), its results renamed to match (pure).
 */
export function turnAfter(history: Message[], turn: Message[]): Message[] {
  const seen = [...history];
  let renamed = new Map<string, string>();
  return turn.map((m) => {
    let out: Message = m;
    if (m.role === 'model' && m.toolCalls.length > 0) {
      const calls = withUniqueIds(m.toolCalls, seen);
      renamed = new Map(m.toolCalls.map((c, i) => [c.id, calls[i].id]));
      out = { ...m, toolCalls: calls };
    } else if (m.role === 'tool') {
      out = { ...m, results: m.results.map((r) => ({ ...r, id: renamed.get(r.id) ?? r.id })) };
    }
    seen.push(out);
    return out;
  });
}

/** The saved conversation; one found damaged was set aside by the load, and the turn starts a new file. */
function loadOrFresh(c: Conversation, env: NodeJS.ProcessEnv): Conversation {
  try {
    return loadConversation(c.id, env);
  } catch (err) {
    if (!(err instanceof DamagedConversationError)) throw err;
    process.stderr.write(`coral: ${err.message}\n`);
    return { ...c, messages: [] };
  }
}

/**
 * Appends one turn to the conversation's file as the file is now, holding its lock: turns of
 * concurrent `coral ask --resume` on one conversation are all kept, in the order they finished.
 * `keep` prunes what is written (auto_prune). Returns the conversation as saved.
 */
export function appendTurn(c: Conversation, turn: Message[], o: { env?: NodeJS.ProcessEnv; keep?: (m: Message[]) => Message[] } = {}): Conversation {
  const env = o.env ?? process.env;
  const path = checkedPath(c.id, env);
  // Conversations hold what the colony showed the agent; an older coral made the folder 0755.
  privateDir(conversationsDir(env));
  return withFileLock(path, () => {
    const now = existsSync(path) ? loadOrFresh(c, env) : { ...c, messages: [] };
    const messages = [...now.messages, ...turnAfter(now.messages, turn)];
    const saved: Conversation = { ...now, model: c.model, updatedAt: new Date().toISOString(), messages: o.keep ? o.keep(messages) : messages };
    writePrivateFile(path, `${JSON.stringify(saved, null, 1)}\n`);
    return saved;
  });
}

const conversationFile = z.object({
  createdAt: z.string(),
  updatedAt: z.string(),
  model: z.string(),
  colony: z.string(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'model', 'tool']) })),
}).loose();

/** A conversation file that cannot be read: renamed aside (kept for the user), never in the way again. */
export class DamagedConversationError extends CoralError {
  constructor(readonly file: string, readonly setAsideAs: string, reason: string) {
    super(`The conversation file ${file} is damaged (${reason}); it was set aside as ${setAsideAs}.`, 'Start a new conversation, or --continue picks the latest good one.');
  }
}

function setAside(path: string, reason: string): DamagedConversationError {
  let target = `${path}.damaged`;
  for (let i = 1; existsSync(target); i++) target = `${path}.damaged-${i}`;
  renameSync(path, target);
  return new DamagedConversationError(path, target, reason);
}

export function loadConversation(id: string, env: NodeJS.ProcessEnv = process.env): Conversation {
  const path = checkedPath(id, env);
  if (!existsSync(path)) {
    throw new CoralError(`No conversation "${id}".`, `Conversations are in ${conversationsDir(env)}; --continue picks the latest.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw setAside(path, `not valid JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const r = conversationFile.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw setAside(path, `${i.path.join('.') || 'top level'}: ${i.message}`);
  }
  // The id is the file's name, whatever the file says: its content never chooses where it is saved.
  return { ...(r.data as unknown as Conversation), id };
}

/** The newest readable conversation; damaged ones on the way are set aside and reported through `note`. */
export function latestConversation(env: NodeJS.ProcessEnv = process.env, note: (message: string) => void = (m) => process.stderr.write(`coral: ${m}\n`)): Conversation | null {
  const dir = conversationsDir(env);
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && CONVERSATION_ID.test(f.slice(0, -5)));
  const newestFirst = files.map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { f } of newestFirst) {
    try {
      return loadConversation(f.slice(0, -5), env);
    } catch (err) {
      if (!(err instanceof DamagedConversationError)) throw err;
      note(err.message);
    }
  }
  return null;
}

const tokensOf = (m: Message) => Math.ceil(JSON.stringify(m).length / 4);

/**
 * Keeps the conversation within `maxTurns` turns and about `contextWindow` tokens by dropping the
 * oldest whole turns (a turn starts at a user message), so calls and results stay paired. The
 * newest turn is always kept.
 */
export function prune(messages: Message[], o: { maxTurns: number; contextWindow: number }): Message[] {
  const starts = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  let first = 0;
  const total = (from: number) => messages.slice(from).reduce((s, m) => s + tokensOf(m), 0);
  while (first < starts.length - 1 && (starts.length - first > o.maxTurns || total(starts[first]) > o.contextWindow)) first++;
  return starts.length === 0 ? messages : messages.slice(starts[first]);
}

/**
 * The history a new turn starts from: with auto_prune, the previous turns that fit beside it in
 * max_turns and context_window; without, everything (the model may then refuse a long history).
 */
export function historyForTurn(messages: Message[], s: { autoPrune: boolean; maxTurns: number; contextWindow: number }): Message[] {
  return s.autoPrune ? prune(messages, { maxTurns: Math.max(1, s.maxTurns - 1), contextWindow: s.contextWindow }) : messages;
}
