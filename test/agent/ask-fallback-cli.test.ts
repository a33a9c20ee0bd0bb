import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { askJsonSchema } from '../../src/commands/ask-output.js';
import { fakeAnthropic, fakeGemini, type FakeLlm } from '../support/fake-llm.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-ask-fallback-'));
const fakes: FakeLlm[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
  rmSync(home, { recursive: true, force: true });
});

async function coral(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home, HONEYCOMB_API_KEY: '', GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: '', ...env }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('coral ask with a fallback model (the built bundle, strict fakes)', () => {
  it('asks consent for the fallback provider, reports the model that answered, and --continue switches provider', async () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'consents.json'), JSON.stringify({ google: '2026-01-01T00:00:00.000Z' }));
    const broken = await fakeGemini([{ status: 500 }]);
    const claude = await fakeAnthropic([{ toolCalls: [{ name: 'coral_query_summary', args: { time_range: '30m' } }] }, { text: ['Finding: from Claude [1].'] }]);
    fakes.push(broken, claude);
    const env = { CORAL_GEMINI_BASE_URL: broken.url, ANTHROPIC_BASE_URL: claude.url, CORAL_ASK_FALLBACK_MODELS: 'anthropic:claude-fake' };
    const args = ['ask', 'why?', '--demo', 'healthy', '--model', 'google:gemini-test', '--json'];

    // Consent for google only: Anthropic may not take over without --yes.
    const refused = await coral(args, env);
    expect(refused.code).toBe(1);
    expect(askJsonSchema.parse(JSON.parse(refused.stdout)).error).toMatch(/anthropic:claude-fake cannot take over: Telemetry from your colony .*sent to anthropic's cloud API\. Confirm once with --yes/);
    expect(claude.requests).toHaveLength(0);

    const ok = await coral([...args, '--yes'], env);
    const out = askJsonSchema.parse(JSON.parse(ok.stdout));
    expect(out).toMatchObject({ finished: 'answered', model: 'anthropic:claude-fake', answer: 'Finding: from Claude [1].' });
    expect(out.warnings.filter((w) => /falling back to anthropic:claude-fake/.test(w))).toHaveLength(1);
    expect(claude.rejections).toEqual([]);
    const saved = JSON.parse(readFileSync(join(home, 'conversations', `${out.conversation_id}.json`), 'utf8')) as { model: string; messages: { role: string; model?: string }[] };
    expect(saved.model).toBe('anthropic:claude-fake');
    expect(saved.messages.filter((m) => m.role === 'model').map((m) => m.model)).toEqual(['anthropic:claude-fake', 'anthropic:claude-fake']);
    expect(Object.keys(JSON.parse(readFileSync(join(home, 'consents.json'), 'utf8')) as object).sort()).toEqual(['anthropic', 'google']);

    // Follow up on Gemini with Claude's tool calls in the history; an OpenAI fallback without a key stays unused.
    const gemini = await fakeGemini([{ text: ['Still payment.'] }]);
    fakes.push(gemini);
    const next = await coral(['ask', 'and now?', '--model', 'google:gemini-test', '--json', '--continue'], { CORAL_GEMINI_BASE_URL: gemini.url, CORAL_ASK_FALLBACK_MODELS: 'openai:gpt-4o-mini' });
    const followUp = askJsonSchema.parse(JSON.parse(next.stdout));
    expect(gemini.rejections).toEqual([]);
    expect(followUp).toMatchObject({ conversation_id: out.conversation_id, model: 'google:gemini-test', answer: 'Still payment.' });
  }, 300_000);
});
