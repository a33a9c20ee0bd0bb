import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CoralError } from '../core/errors.js';
import { coralHome } from '../core/paths.js';
import type { Message } from './events.js';

/**
 * Conversations under ~/.coral/conversations/, one JSON file each, written atomically (a crash
 * never leaves a half-written file), tool calls always paired with their results.
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

/**
 * Writes beside the target, flushes, then renames over it: readers see the old file or the new one.
 * Private (0600) from the first byte: these files hold investigations, consents and trust.
 */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** File names, not paths: no separator, no "..", nothing a shell or a file system reads specially. */
const CONVERSATION_ID = /^[A-Za-z0-9][\w.-]{0,127}$/;

function checkedPath(id: string, env: NodeJS.ProcessEnv): string {
  if (!CONVERSATION_ID.test(id) || id.includes('..')) {
    throw new CoralError(`"${id.slice(0, 80)}" is not a conversation id.`, 'Ids are letters, digits, dots, dashes and underscores, e.g. 2026-11-26-1a2b3c4d.');
  }
  return join(conversationsDir(env), `${id}.json`);
}

/** The folder, private: conversations hold what the colony showed the agent. */
function privateDir(env: NodeJS.ProcessEnv): string {
  const dir = conversationsDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An older coral created it 0755: tightened on the next save.
  chmodSync(dir, 0o700);
  return dir;
}

export function saveConversation(c: Conversation, env: NodeJS.ProcessEnv = process.env): string {
  const path = checkedPath(c.id, env);
  privateDir(env);
  writeAtomic(path, `${JSON.stringify({ ...c, updatedAt: new Date().toISOString() }, null, 1)}\n`);
  return path;
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
