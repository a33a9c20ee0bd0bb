import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AskSettings, BUILT_IN } from '../../src/agent/config.js';
import { ensureConsent, hasConsent } from '../../src/agent/consent.js';
import type { Message } from '../../src/agent/events.js';
import { FallbackProvider } from '../../src/agent/providers/fallback.js';
import { createModel } from '../../src/agent/providers/index.js';
import { INVESTIGATION, KINDS, type Harness, callIds, harness, provider, turn } from './harness.js';

let h: Harness;
const home = mkdtempSync(join(tmpdir(), 'coral-fallback-'));
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
  rmSync(home, { recursive: true, force: true });
});

const PAIRS = KINDS.flatMap((a) => KINDS.filter((b) => b !== a).map((b) => [a, b] as const));

describe('fallback mid-turn, across each pair of providers', () => {
  it.each(PAIRS)('%s fails at round 2, %s takes over for the rest of the turn', async (a, b) => {
    const primary = await h.fake(a, [INVESTIGATION[0], { status: 500 }, { text: ['primary again?'] }]);
    const backup = await h.fake(b, [INVESTIGATION[1], INVESTIGATION[2]]);
    const chain = new FallbackProvider([provider(a, primary), provider(b, backup)]);
    const r = await turn(h, chain, 'Why do checkouts fail?');
    expect(backup.rejections).toEqual([]);
    expect(r.answer).toBe('Finding: payment fails [2].');
    // Round 3 went straight to the backup: the failed primary was not tried again.
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(2);
    expect(r.warnings.filter((w) => /falling back/.test(w))).toHaveLength(1);
    expect(r.end).toMatchObject({ type: 'turn_end', reason: 'answered', model: chain.name });
    expect(chain.name).toBe(provider(b, backup).name);
    const models = r.messages.flatMap((m) => (m.role === 'model' ? [m.model] : []));
    expect(models).toEqual([provider(a, primary).name, chain.name, chain.name]);
    expect(new Set(callIds(r.messages)).size).toBe(3);
  });

  it('the next turn starts from the primary again', async () => {
    const primary = await h.fake('gemini', [{ status: 500 }, { text: ['back on the primary'] }]);
    const backup = await h.fake('openai', [{ text: ['from the backup'] }]);
    const chain = new FallbackProvider([provider('gemini', primary), provider('openai', backup)]);
    const messages: Message[] = [];
    expect((await turn(h, chain, 'one', { messages })).answer).toBe('from the backup');
    const second = await turn(h, chain, 'two', { messages });
    expect(second.answer).toBe('back on the primary');
    expect(second.end).toMatchObject({ model: 'google:gemini-test' });
  });
});

describe('--continue across providers', () => {
  it.each(PAIRS)('a conversation from %s continues on %s', async (a, b) => {
    const first = await h.fake(a, INVESTIGATION);
    const second = await h.fake(b, INVESTIGATION);
    const messages: Message[] = [];
    await turn(h, provider(a, first), 'first question', { messages });
    const r = await turn(h, provider(b, second), 'follow-up', { messages });
    expect(second.rejections).toEqual([]);
    expect(r.answer).toBe('Finding: payment fails [2].');
    expect(new Set(callIds(messages)).size).toBe(6);
  });
});

const settings = (model: string, fallbackModels: string[]): AskSettings => ({ model, fallbackModels, apiKeys: {}, ...BUILT_IN, mcpServers: {}, origin: {} });

describe('fallback and consent', () => {
  it('a fallback whose key is missing fails no question the primary answers', async () => {
    const f = await h.fake('gemini', [{ text: ['primary answer'] }]);
    const model = createModel(settings('google:gemini-test', ['openai:gpt-4o-mini']), { GEMINI_API_KEY: 'k', CORAL_GEMINI_BASE_URL: f.url, CORAL_HOME: home });
    const r = await turn(h, model, 'q');
    expect(r.answer).toBe('primary answer');
  });

  it('the missing key is named when the fallback is needed', async () => {
    const f = await h.fake('gemini', [{ status: 400 }]);
    const model = createModel(settings('google:gemini-test', ['openai:gpt-4o-mini']), { GEMINI_API_KEY: 'k', CORAL_GEMINI_BASE_URL: f.url, CORAL_HOME: home }, async () => undefined);
    const r = await turn(h, model, 'q');
    expect(r.error).toMatchObject({ message: expect.stringMatching(/google:gemini-test failed \(.*\); openai:gpt-4o-mini cannot take over: No API key for openai\. Set ai\.ask\.api_keys\.openai/) });
  });

  it('a notice before the failure (a prompt longer than Ollama\'s context) does not stop the fallback', async () => {
    const primary = await h.fake('ollama', [{ status: 500 }]);
    const backup = await h.fake('anthropic', [{ text: ['from anthropic'] }]);
    const r = await turn(h, new FallbackProvider([provider('ollama', primary, { contextTokens: 100 }), provider('anthropic', backup)], async () => undefined), 'q');
    expect(r.events.some((e) => e.type === 'warning' && /Ollama's context/.test(e.message))).toBe(true);
    expect(r.answer).toBe('from anthropic');
  });

  it('asks consent for the fallback provider and refuses without it, naming that provider', async () => {
    const primary = await h.fake('ollama', [{ status: 500 }]);
    const backup = await h.fake('anthropic', [{ text: ['from anthropic'] }]);
    const env = { CORAL_HOME: home };
    // Not a terminal and no --yes: ensureConsent refuses; nothing is sent to Anthropic.
    const gate = (yes: boolean) => async (p: { name: string }) => ensureConsent(p.name.split(':')[0], { yes, env });
    const refused = await turn(h, new FallbackProvider([provider('ollama', primary), provider('anthropic', backup)], gate(false)), 'q');
    expect(backup.requests).toHaveLength(0);
    expect(refused.error).toMatchObject({ message: expect.stringMatching(/anthropic:claude-fake cannot take over: Telemetry from your colony .* will be sent to anthropic's cloud API\. Confirm once with --yes/) });
    expect(hasConsent('anthropic', env)).toBe(false);
    const allowed = await turn(h, new FallbackProvider([provider('ollama', primary), provider('anthropic', backup)], gate(true)), 'q');
    expect(allowed.answer).toBe('from anthropic');
    expect(hasConsent('anthropic', env)).toBe(true);
    expect(hasConsent('ollama', env)).toBe(false);
  });

  it('the console (no way to ask) uses a fallback only with consent already given', async () => {
    const f = await h.fake('ollama', [{ status: 500 }]);
    const model = createModel(settings('ollama:llama-fake', ['openai:gpt-4o-mini']), { OLLAMA_BASE_URL: `${f.url}/v1`, OPENAI_API_KEY: 'k', CORAL_HOME: join(home, 'fresh') });
    expect(model.cloud).toBe(false);
    const r = await turn(h, model, 'q');
    expect(r.error).toMatchObject({ message: expect.stringMatching(/openai:gpt-4o-mini cannot take over: no consent to send telemetry to openai's cloud API/) });
  });
});
