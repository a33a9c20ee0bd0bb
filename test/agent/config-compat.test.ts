import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAskSettings } from '../../src/agent/config.js';
import { migrateConfig, takeConfigNotes } from '../../src/agent/config-compat.js';
import { inferModelName } from '../../src/agent/model-names.js';
import { createProvider } from '../../src/agent/providers/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** RFD 030's own configuration example, as Coral users bring it. */
const RFD_030 = `version: "1"
default_colony: "my-app-prod"

discovery:
    endpoint: "http://localhost:8080"

ai:
    provider: "google"
    api_key_source: "env"
    ask:
        default_model: "gemini-1.5-flash"
        google_api_key: "env://GOOGLE_API_KEY"
        agent:
            mode: embedded
        conversation:
            max_turns: 10
            context_window: 8192
            auto_prune: true

colonies:
    my-app-production-xyz:
        ask:
            default_model: "gemini-1.5-pro"
`;

function home(config: string): string {
  const d = mkdtempSync(join(tmpdir(), 'coral-compat-'));
  dirs.push(d);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'config.yaml'), config);
  return d;
}

describe("RFD 030's configuration", () => {
  it('is accepted: each key mapped onto the one that replaces it, with a note', () => {
    takeConfigNotes();
    const d = home(RFD_030);
    const s = resolveAskSettings({ env: { CORAL_HOME: d }, cwd: d, colonyId: 'my-app-production-xyz' });
    expect(s.model).toBe('google:gemini-1.5-pro');
    expect(s.apiKeys).toEqual({ google: 'env://GOOGLE_API_KEY' });
    expect(s.maxTurns).toBe(10);
    expect(s.contextWindow).toBe(8192);
    const notes = takeConfigNotes().join('\n');
    expect(notes).toMatch(/ai\.ask\.google_api_key is read as ai\.ask\.api_keys\.google/);
    expect(notes).toMatch(/ai\.ask\.default_model "gemini-1\.5-flash" is taken as google:gemini-1\.5-flash/);
    expect(notes).toMatch(/default_colony is a setting of Coral's colony discovery, not used here: .*--colony URL/);
    expect(notes).toMatch(/ai\.provider: "google" is used for bare model names/);
    expect(notes).toMatch(/ai\.ask\.agent\.mode: "embedded" is how coral always runs the agent/);
  });

  it('refuses what cannot be mapped, with the replacement spelled out', () => {
    const d = home('ai:\n  api_key_source: vault\n  ask:\n    agent:\n      mode: daemon\n');
    expect(() => resolveAskSettings({ env: { CORAL_HOME: d }, cwd: d })).toThrow(/cannot be used here:\n  ai\.api_key_source: "vault" is not a key source\. Keys are references: ai\.ask\.api_keys\.<provider>: env:\/\/VARIABLE[\s\S]*ai\.ask\.agent\.mode: "daemon" is not available: coral runs the agent in its own process \(embedded\)\. Remove the key\./);
  });

  it('an unknown bare name with ai.provider takes that provider', () => {
    const m = migrateConfig({ ai: { provider: 'ollama', ask: { default_model: 'my-finetune', fallback_models: ['gpt-4o-mini'] } } });
    expect(m.config).toEqual({ ai: { ask: { default_model: 'ollama:my-finetune', fallback_models: ['openai:gpt-4o-mini'] } } });
  });
});

describe('bare model names', () => {
  it.each([
    ['gemini-1.5-pro', 'google:gemini-1.5-pro'],
    ['gpt-4o', 'openai:gpt-4o'],
    ['o3-mini', 'openai:o3-mini'],
    ['claude-sonnet-4-6', 'anthropic:claude-sonnet-4-6'],
    ['llama3.2', 'ollama:llama3.2'],
    ['qwen2.5:7b', 'ollama:qwen2.5:7b'],
    ['mistral', 'ollama:mistral'],
    ['google:gemini-2.5-flash', 'google:gemini-2.5-flash'],
  ])('%s is %s', (name, model) => {
    expect(inferModelName(name, '--model').model).toBe(model);
  });

  it('the console\'s :model takes bare names too, and refuses unknown ones clearly', () => {
    const s = { model: null, fallbackModels: [], apiKeys: {}, maxToolRounds: 8, maxTurns: 20, contextWindow: 128_000, autoPrune: true, mcpServers: {}, origin: {} };
    expect(createProvider('llama3.2', s, {}).name).toBe('ollama:llama3.2');
    expect(() => createProvider('frobnicate', s, {})).toThrow(/"frobnicate" is not a model name/);
  });

  it('--model gemini-1.5-pro is accepted, saying which provider was chosen', () => {
    takeConfigNotes();
    const d = home('');
    expect(resolveAskSettings({ env: { CORAL_HOME: d }, cwd: d, flags: { model: 'gemini-1.5-pro' } }).model).toBe('google:gemini-1.5-pro');
    expect(takeConfigNotes()).toEqual(['--model "gemini-1.5-pro" is taken as google:gemini-1.5-pro (write provider:model to choose another provider).']);
    expect(() => resolveAskSettings({ env: { CORAL_HOME: d }, cwd: d, flags: { model: 'gpt4' } })).toThrow(/--model "gpt4" is not a model name/);
  });
});
