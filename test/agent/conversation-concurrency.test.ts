import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendTurn, conversationsDir, loadConversation, newConversation, turnAfter } from '../../src/agent/conversation.js';
import type { Message } from '../../src/agent/events.js';
import { withFileLock } from '../../src/core/file-lock.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'coral-conv-lock-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Resolves when the child has written `word` on a line of its stdout. */
function said(child: ChildProcess, word: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').includes(word)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before saying ${word}: ${out}`)));
  });
}

describe('a conversation resumed by several processes at once', () => {
  it('keeps every turn: four writers that all read the same old file each append theirs', async () => {
    const env = { CORAL_HOME: home };
    const c = newConversation('triage:automatic', 'demo:x');
    appendTurn(c, [{ role: 'user', text: 'first' }, { role: 'model', text: 'one', toolCalls: [] }], { env });
    const writers = [1, 2, 3, 4].map((n) =>
      spawn(process.execPath, ['--import', 'tsx', 'test/support/conversation-turn.ts', c.id, `question ${n}`], { env: { ...process.env, CORAL_HOME: home }, stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    // Every writer holds the same copy before any saves: the lost-update case, made certain.
    await Promise.all(writers.map((w) => said(w, 'loaded')));
    const exits = writers.map((w) => once(w, 'exit'));
    for (const w of writers) w.stdin?.end('go\n');
    const codes = (await Promise.all(exits)).map(([code]) => code);
    expect(codes).toEqual([0, 0, 0, 0]);
    const saved = loadConversation(c.id, env);
    const questions = saved.messages.flatMap((m) => (m.role === 'user' ? [m.text] : []));
    expect(questions[0]).toBe('first');
    expect(questions.slice(1).sort()).toEqual(['question 1', 'question 2', 'question 3', 'question 4']);
    expect(saved.messages).toHaveLength(10);
  }, 60_000);

  it('a turn run beside another gets tool-call ids of its own, its results renamed to match', () => {
    const call = (id: string): Message[] => [
      { role: 'user', text: 'q' },
      { role: 'model', text: '', toolCalls: [{ id, name: 'coral_query_summary', args: {} }] },
      { role: 'tool', results: [{ id, name: 'coral_query_summary', ok: true, text: 'x' }] },
    ];
    const turn = turnAfter(call('call_1'), call('call_1'));
    const m = turn[1];
    const t = turn[2];
    if (m.role !== 'model' || t.role !== 'tool') throw new Error('shape');
    expect(m.toolCalls[0].id).not.toBe('call_1');
    expect(t.results[0].id).toBe(m.toolCalls[0].id);
    expect(turnAfter([], call('call_1'))).toEqual(call('call_1'));
  });
});

describe('the file lock', () => {
  it('breaks a lock left by a process that died', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await once(dead, 'exit');
    const path = join(home, 'x.json');
    writeFileSync(`${path}.lock`, `${dead.pid} abc`);
    expect(withFileLock(path, () => 'ran', { timeoutMs: 2000 })).toBe('ran');
  });

  it('waits for a live holder, then fails clearly rather than writing', () => {
    const path = join(home, 'y.json');
    writeFileSync(`${path}.lock`, `${process.pid} abc`);
    let ran = false;
    expect(() => withFileLock(path, () => (ran = true), { timeoutMs: 50 })).toThrow(/held by another coral \(\d+\)/);
    expect(ran).toBe(false);
  });

  it('appendTurn keeps turns of writers in this process too, and the lock is released', () => {
    const env = { CORAL_HOME: home };
    mkdirSync(conversationsDir(env), { recursive: true });
    const c = newConversation('m', 'c');
    appendTurn(c, [{ role: 'user', text: 'a' }], { env });
    appendTurn(c, [{ role: 'user', text: 'b' }], { env });
    expect(loadConversation(c.id, env).messages).toEqual([{ role: 'user', text: 'a' }, { role: 'user', text: 'b' }]);
    expect(withFileLock(join(conversationsDir(env), `${c.id}.json`), () => 'free', { timeoutMs: 50 })).toBe('free');
  });
});
