import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
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

export function saveConversation(c: Conversation, env: NodeJS.ProcessEnv = process.env): string {
  const dir = conversationsDir(env);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${c.id}.json`);
  writeAtomic(path, `${JSON.stringify({ ...c, updatedAt: new Date().toISOString() }, null, 1)}\n`);
  return path;
}

export function loadConversation(id: string, env: NodeJS.ProcessEnv = process.env): Conversation {
  const path = join(conversationsDir(env), `${id}.json`);
  if (!/^[\w.-]+$/.test(id) || !existsSync(path)) {
    throw new CoralError(`No conversation "${id}".`, `Conversations are in ${conversationsDir(env)}; --continue picks the latest.`);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Conversation;
}

export function latestConversation(env: NodeJS.ProcessEnv = process.env): Conversation | null {
  const dir = conversationsDir(env);
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  if (files.length === 0) return null;
  const latest = files.map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs })).sort((a, b) => b.t - a.t)[0].f;
  return loadConversation(latest.replace(/\.json$/, ''), env);
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
