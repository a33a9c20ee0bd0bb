import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { ColonyStore } from '../../src/colony/store/store.js';
import { SKIPPED_CONFIG, firstRunConfig, needsFirstRun } from '../../src/commands/first-run.js';
import { coralCli } from '../support/coral-cli.js';

/** Scripted answers to the questions, in order; Enter is ''. */
const answers = (...list: string[]) => {
  const asked: string[] = [];
  return { asked, ask: async (q: string) => (asked.push(q), list.shift() ?? '') };
};

let home = '';
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'coral-first-run-'));
  vi.stubEnv('CORAL_HOME', home);
  vi.stubEnv('CORAL_ASK_MODEL', '');
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

describe('the first-run question', () => {
  it('Enter skips it: no settings', async () => {
    const a = answers('');
    expect(await firstRunConfig(a.ask)).toBeNull();
    expect(a.asked).toHaveLength(1);
    expect(a.asked[0]).toMatch(/No model is configured.*Enter skips/);
  });

  it('a provider gives its default model and key variable, never the key', async () => {
    expect(await firstRunConfig(answers('openai', '', '').ask)).toEqual({ ai: { ask: { default_model: 'openai:gpt-4o-mini', api_keys: { openai: 'env://OPENAI_API_KEY' } } } });
    expect(await firstRunConfig(answers('ollama', 'qwen2.5').ask)).toEqual({ ai: { ask: { default_model: 'ollama:qwen2.5' } } });
  });

  it('a skipped run leaves a file of comments, which reads as no settings and is not asked again', () => {
    expect(parse(SKIPPED_CONFIG)).toBeNull();
    expect(needsFirstRun({ db: '/x.duckdb' }, undefined)).toBe(true);
    writeFileSync(join(home, 'config.yaml'), SKIPPED_CONFIG);
    expect(needsFirstRun({ db: '/x.duckdb' }, undefined)).toBe(false);
  });

  it('is not asked with --model, CORAL_ASK_MODEL, or on a demo (its recording plays)', () => {
    expect(needsFirstRun({ db: '/x.duckdb' }, 'ollama:llama3.2')).toBe(false);
    expect(needsFirstRun({ demo: 'payment-failure' }, undefined)).toBe(false);
    vi.stubEnv('CORAL_ASK_MODEL', 'ollama:llama3.2');
    expect(needsFirstRun({ db: '/x.duckdb' }, undefined)).toBe(false);
  });
});

describe('coral ask with no model, off a terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-first-run-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('asks nothing, writes nothing, answers with the automatic triage and says in one line how to choose a model', async () => {
    const db = join(dir, 'empty.duckdb');
    await (await ColonyStore.open({ path: db, threads: 1, memoryLimit: '1GB' })).close();
    const r = await coralCli({ CORAL_HOME: dir, CORAL_ASK_MODEL: '' })('ask', 'what is wrong', '--db', db);
    expect(r.code, r.stderr).toBe(0);
    const hint = r.stderr.split('\n').filter((l) => /no model configured/.test(l));
    expect(hint).toHaveLength(1);
    expect(hint[0]).toMatch(/automatic triage on .* \(to choose a model: coral config set ai\.ask\.default_model PROVIDER:MODEL, or coral config init\)$/);
    expect(existsSync(join(dir, 'config.yaml'))).toBe(false);
  });
});
