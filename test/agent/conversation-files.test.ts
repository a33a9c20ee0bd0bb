import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DamagedConversationError, appendTurn, conversationsDir, latestConversation, loadConversation, newConversation } from '../../src/agent/conversation.js';

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'coral-conv-'));
  env = { CORAL_HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const dir = () => conversationsDir(env);
const mode = (p: string) => statSync(p).mode & 0o777;

describe('conversation files', () => {
  it('are 0600 in a 0700 folder, and an older 0755 folder is tightened', () => {
    const c = newConversation('triage:automatic', 'demo:x');
    appendTurn(c, [], { env });
    const path = join(dir(), `${c.id}.json`);
    expect(mode(path)).toBe(0o600);
    expect(mode(dir())).toBe(0o700);
    chmodSync(dir(), 0o755);
    chmodSync(path, 0o644);
    appendTurn(c, [], { env });
    expect(mode(dir())).toBe(0o700);
    expect(mode(path)).toBe(0o600);
  });

  it('never lets an id escape the folder: the file\'s own id is ignored, bad ids are refused', () => {
    mkdirSync(dir(), { recursive: true });
    const good = newConversation('m', 'c');
    writeFileSync(join(dir(), 'planted.json'), JSON.stringify({ ...good, id: '../../escaped-conv' }));
    const loaded = loadConversation('planted', env);
    expect(loaded.id).toBe('planted');
    appendTurn(loaded, [], { env });
    expect(existsSync(join(home, 'escaped-conv.json'))).toBe(false);
    expect(() => appendTurn({ ...good, id: '../../escaped-conv' }, [], { env })).toThrow(/is not a conversation id/);
    expect(() => loadConversation('../config', env)).toThrow(/is not a conversation id/);
    expect(existsSync(join(home, 'escaped-conv.json'))).toBe(false);
  });

  it('sets a damaged file aside with a note naming it, and --continue moves on to the latest good one', async () => {
    const good = newConversation('m', 'c');
    appendTurn(good, [], { env });
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(dir(), 'truncated.json'), '{"id":"truncated","messages":[{"role":"us');
    const notes: string[] = [];
    const latest = latestConversation(env, (m) => notes.push(m));
    expect(latest?.id).toBe(good.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(join(dir(), 'truncated.json'));
    expect(notes[0]).toMatch(/is damaged \(not valid JSON: .*\); it was set aside as .*truncated\.json\.damaged/);
    expect(readdirSync(dir()).sort()).toEqual([`${good.id}.json`, 'truncated.json.damaged']);
    // Never stuck: the next --continue is quiet.
    expect(latestConversation(env, (m) => notes.push(m))?.id).toBe(good.id);
    expect(notes).toHaveLength(1);
  });

  it('an empty object is damaged, not a TypeError', () => {
    mkdirSync(dir(), { recursive: true });
    writeFileSync(join(dir(), 'empty.json'), '{}');
    let err: unknown;
    try {
      loadConversation('empty', env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DamagedConversationError);
    expect((err as Error).message).toMatch(/empty\.json is damaged \(createdAt: .*\); it was set aside as .*empty\.json\.damaged/);
    expect(latestConversation(env, () => undefined)).toBeNull();
  });
});
