import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { initConfig, keyPath, parseValue, setKey } from '../../src/commands/config-edit.js';

const dir = mkdtempSync(join(tmpdir(), 'coral-config-edit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('coral config set', () => {
  it('reads dotted keys, keeping a colony id with dots whole', () => {
    expect(keyPath('ai.ask.default_model')).toEqual(['ai', 'ask', 'default_model']);
    expect(keyPath('colonies./home/me/.coral/colony.duckdb.ask.default_model')).toEqual(['colonies', '/home/me/.coral/colony.duckdb', 'ask', 'default_model']);
    expect(() => keyPath('ai..ask')).toThrow(/Invalid key "ai\.\.ask"/);
  });

  it('types values as YAML does', () => {
    expect(parseValue('12')).toBe(12);
    expect(parseValue('true')).toBe(true);
    expect(parseValue('[openai:gpt-4o-mini, ollama:llama3.2]')).toEqual(['openai:gpt-4o-mini', 'ollama:llama3.2']);
    expect(parseValue('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318');
  });

  it('sets a key and keeps the comments and the other keys', () => {
    const path = join(dir, 'keep.yaml');
    writeFileSync(path, '# my settings\nhoneycomb:\n  region: eu # EU team\n');
    const text = setKey(path, 'ai.ask.max_tool_rounds', '12');
    expect(text).toMatch(/^# my settings\nhoneycomb:\n  region: eu # EU team\nai:\n  ask:\n    max_tool_rounds: 12\n$/);
    expect(parse(setKey(join(dir, 'absent.yaml'), 'colony.url', 'http://127.0.0.1:4318'))).toEqual({ colony: { url: 'http://127.0.0.1:4318' } });
  });

  it('refuses a key value, an unknown key or a bad value, writing nothing', () => {
    const path = join(dir, 'refuse.yaml');
    writeFileSync(path, 'ai:\n  ask:\n    max_tool_rounds: 3\n');
    expect(() => setKey(path, 'ai.ask.api_keys.openai', 'sk-live-123')).toThrow(/api_keys\.openai: API keys are references, not values: write env:\/\/VARIABLE/);
    expect(() => setKey(path, 'ai.ask.colour', 'red')).toThrow(/Not written: .* invalid settings/);
    expect(() => setKey(path, 'ai.ask.max_tool_rounds', 'many')).toThrow(/max_tool_rounds/);
    expect(readFileSync(path, 'utf8')).toBe('ai:\n  ask:\n    max_tool_rounds: 3\n');
  });
});

/** Answers the questions in order; records what was asked. */
function scripted(answers: string[]) {
  const asked: string[] = [];
  return {
    asked,
    ask: async (q: string, fallback: string) => {
      asked.push(q);
      return answers.length > 0 ? (answers.shift() as string) : fallback;
    },
  };
}

describe('coral config init', () => {
  it('writes env:// references for keys, never a key, from the answers', async () => {
    const s = scripted(['openai', '', 'MY_OPENAI', 'yes', '', 'eu', 'http://10.0.0.5:4318']);
    const cfg = await initConfig(s.ask, { MY_OPENAI: 'x', HONEYCOMB_API_KEY: 'y' });
    expect(cfg).toEqual({
      ai: { ask: { default_model: 'openai:gpt-4o-mini', api_keys: { openai: 'env://MY_OPENAI' } } },
      honeycomb: { api_key: 'env://HONEYCOMB_API_KEY', region: 'eu' },
      colony: { url: 'http://10.0.0.5:4318' },
    });
    expect(s.asked.some((q) => /key itself is never written/.test(q))).toBe(true);
  });

  it('asks again after an answer it cannot use, and notes unset variables', async () => {
    const s = scripted(['gpt', '', 'ollama', '', 'no', '']);
    expect(await initConfig(s.ask, {})).toEqual({ ai: { ask: { default_model: 'ollama:llama3.2' } } });
    expect(s.asked[1]).toMatch(/"gpt" is not accepted: google, openai, anthropic, ollama or none/);
    const unset = scripted(['google', '', '', 'no', '']);
    await initConfig(unset.ask, {});
    expect(unset.asked.at(-1)).toMatch(/GEMINI_API_KEY is not set in this shell/);
  });
});
