import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs } from '../support/config-dirs.js';
import { resolveAskSettings, resolveSecret } from '../../src/agent/config.js';
import { appendTurn, historyForTurn, latestConversation, loadConversation, newConversation, prune } from '../../src/agent/conversation.js';
import type { Message } from '../../src/agent/events.js';
import { createModel, createProvider } from '../../src/agent/providers/index.js';
import { FallbackProvider } from '../../src/agent/providers/fallback.js';

const { dirs, globalFile, projectFile } = configDirs();
const resolve = (env: Record<string, string> = {}, extra: Parameters<typeof resolveAskSettings>[0] = {}) =>
  resolveAskSettings({ env: { CORAL_HOME: dirs.home, ...env }, cwd: dirs.project, ...extra });

describe('configuration precedence', () => {
  it('flag > environment > project > colony > global > built-in, for the model', () => {
    expect(resolve().model).toBeNull();
    globalFile('ai:\n  ask:\n    default_model: google:global-model\ncolonies:\n  prod:\n    ask:\n      default_model: google:colony-model\n');
    expect(resolve().model).toBe('google:global-model');
    expect(resolve({}, { colonyId: 'prod' }).model).toBe('google:colony-model');
    projectFile('ai:\n  ask:\n    default_model: openai:project-model\n');
    expect(resolve({}, { colonyId: 'prod' }).model).toBe('openai:project-model');
    expect(resolve({ CORAL_ASK_MODEL: 'anthropic:env-model' }, { colonyId: 'prod' }).model).toBe('anthropic:env-model');
    const s = resolve({ CORAL_ASK_MODEL: 'anthropic:env-model' }, { colonyId: 'prod', flags: { model: 'ollama:flag-model' } });
    expect(s.model).toBe('ollama:flag-model');
    expect(s.origin.model).toBe('flag (--model)');
  });

  it('gives every documented key its effect', () => {
    globalFile([
      'ai:',
      '  ask:',
      '    default_model: google:gemini-2.5-flash',
      '    fallback_models: [openai:gpt-4o-mini, ollama:llama3.2]',
      '    api_keys: { google: env://MY_GEMINI, openai: env://MY_OPENAI }',
      '    max_tool_rounds: 3',
      '    conversation: { max_turns: 4, context_window: 5000, auto_prune: false }',
    ].join('\n'));
    const s = resolve({ MY_GEMINI: 'g-key', MY_OPENAI: 'o-key' });
    expect(s).toMatchObject({ model: 'google:gemini-2.5-flash', fallbackModels: ['openai:gpt-4o-mini', 'ollama:llama3.2'], maxToolRounds: 3, maxTurns: 4, contextWindow: 5000, autoPrune: false });
    const model = createModel(s, { MY_GEMINI: 'g-key', MY_OPENAI: 'o-key' });
    expect(model).toBeInstanceOf(FallbackProvider);
    expect(model.name).toBe('google:gemini-2.5-flash');
    // api_keys: the reference decides which variable is read.
    expect(() => createProvider('google:x', s, {})).toThrow(/env:\/\/MY_GEMINI points to MY_GEMINI, which is not set/);
    expect(() => createProvider('openai:x', s, { MY_OPENAI: 'o' })).not.toThrow();
    expect(resolve({ CORAL_ASK_FALLBACK_MODELS: 'replay:healthy' }).fallbackModels).toEqual(['replay:healthy']);
  });

  it('rejects a plain-text key, showing the env:// form', () => {
    globalFile('ai:\n  ask:\n    api_keys:\n      google: AIzaSyPlainTextKey\n');
    expect(() => resolve()).toThrow(/api_keys\.google: API keys are references, not values: write env:\/\/VARIABLE/);
  });

  it('explains unknown keys, bad YAML, bad model names and keyring references', () => {
    globalFile('ai:\n  ask:\n    defualt_model: google:x\n');
    expect(() => resolve()).toThrow(/Unrecognized key.*defualt_model|defualt_model/);
    globalFile('ai: [unclosed');
    expect(() => resolve()).toThrow(/is not valid YAML/);
    globalFile('');
    expect(() => resolve({}, { flags: { model: 'gemini' } })).toThrow(/--model "gemini" is not a model name/);
    expect(() => resolveSecret('keyring://coral/google')).toThrow(/system keyring cannot be reached|No secret at keyring:\/\/coral\/google/);
  });
});

describe('Honeycomb settings', () => {
  it('read the key through its env:// reference, and region, URL and cache TTL take effect', async () => {
    globalFile('honeycomb:\n  api_key: env://MY_HC_KEY\n  region: eu\n  cache_ttl_seconds: 60\n');
    const { honeycombOptions } = await import('../../src/agent/honeycomb-options.js');
    const { connectHoneycomb } = await import('../../src/honeycomb/connect.js');
    const o = honeycombOptions({}, { CORAL_HOME: dirs.home, MY_HC_KEY: 'hc-key' });
    expect(o).toMatchObject({ apiKey: 'hc-key', region: 'eu', cacheTtlMs: 60_000 });
    const conn = await connectHoneycomb(o);
    expect(conn.fake).toBe(false);
    expect(conn.client.baseUrl).toBe('https://api.eu1.honeycomb.io');
    await conn.close();
    globalFile('honeycomb:\n  api_key: hcaik_plaintext\n');
    expect(() => honeycombOptions({}, { CORAL_HOME: dirs.home })).toThrow(/honeycomb\.api_key: API keys are references/);
  });
});

describe('conversations', () => {
  const env = () => ({ CORAL_HOME: dirs.home });
  const turn = (n: number): Message[] => [
    { role: 'user', text: `question ${n}` },
    { role: 'model', text: '', toolCalls: [{ id: `c${n}`, name: 'coral_query_summary', args: {} }] },
    { role: 'tool', results: [{ id: `c${n}`, name: 'coral_query_summary', ok: true, text: 'x'.repeat(400) }] },
    { role: 'model', text: `answer ${n}`, toolCalls: [] },
  ];

  it('saves atomically, loads, and finds the latest', () => {
    const c = newConversation('replay:healthy', 'demo:healthy');
    c.messages.push(...turn(1));
    appendTurn(c, c.messages, { env: env() });
    expect(readdirSync(join(dirs.home, 'conversations'))).toEqual([`${c.id}.json`]);
    expect(loadConversation(c.id, env()).messages).toEqual(c.messages);
    expect(latestConversation(env())?.id).toBe(c.id);
    expect(() => loadConversation('../etc/passwd', env())).toThrow(/is not a conversation id/);
  });

  it('auto_prune decides whether a new turn starts from a pruned history', () => {
    const messages = [1, 2, 3, 4].flatMap(turn);
    expect(historyForTurn(messages, { autoPrune: false, maxTurns: 2, contextWindow: 100 })).toHaveLength(16);
    // max_turns 2 leaves room for one previous turn beside the new one.
    expect(historyForTurn(messages, { autoPrune: true, maxTurns: 2, contextWindow: 1e9 })[0]).toEqual({ role: 'user', text: 'question 4' });
  });

  it('prunes whole turns to max_turns and the context window, keeping calls paired', () => {
    const messages = [1, 2, 3, 4].flatMap(turn);
    const byTurns = prune(messages, { maxTurns: 2, contextWindow: 1e9 });
    expect(byTurns[0]).toEqual({ role: 'user', text: 'question 3' });
    expect(byTurns).toHaveLength(8);
    const byTokens = prune(messages, { maxTurns: 100, contextWindow: 300 });
    expect(byTokens[0]).toEqual({ role: 'user', text: 'question 4' });
    for (const list of [byTurns, byTokens]) {
      const calls = list.flatMap((m) => (m.role === 'model' ? m.toolCalls.map((c) => c.id) : []));
      const results = list.flatMap((m) => (m.role === 'tool' ? m.results.map((r) => r.id) : []));
      expect(results).toEqual(calls);
    }
  });
});
