import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { askJsonSchema } from '../../src/commands/ask-output.js';
import { fakeGemini } from '../support/fake-llm.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-ask-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function coral(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home, HONEYCOMB_API_KEY: '', GEMINI_API_KEY: '', ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Each test runs the real binary, several times: on a loaded 2-core machine one run can take 20 s.
const SLOW = 180_000;

describe('coral ask (the built bundle)', () => {
  it('--json prints exactly one object that matches its schema', async () => {
    const r = await coral(['ask', 'Why are checkouts failing?', '--demo', 'payment-failure', '--json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = askJsonSchema.parse(JSON.parse(lines[0]));
    expect(out.model).toBe('replay:payment-failure');
    expect(out.finished).toBe('answered');
    expect(out.answer).toMatch(/Root cause: the payment service/);
    expect(out.tool_calls.map((c) => c.tool)).toEqual(['coral_query_summary', 'coral_query_metrics', 'coral_query_traces', 'coral_query_telemetry_logs']);
    expect(out.tool_calls.every((c) => c.ok && c.server === 'colony')).toBe(true);
    // Each [n] of the answer, with the sentences resting on it and the data of the n-th call.
    expect(out.citations.map((c) => [c.ref, c.tool])).toEqual([[1, 'coral_query_summary'], [2, 'coral_query_metrics'], [3, 'coral_query_traces'], [4, 'coral_query_telemetry_logs']]);
    expect(out.citations[1].claims.join(' ')).toMatch(/Charge method fails for roughly half/);
    expect(out.citations[1].data).toMatch(/payment/);
  }, SLOW);

  it('into a file: the whole answer, then its Sources, on stdout; --stream writes it as it comes', async () => {
    const r = await coral(['ask', 'Why are checkouts failing?', '--demo', 'payment-failure']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Finding: checkouts fail[\s\S]*Recommendation:[\s\S]*\nSources:\n  \[1\] coral_query_summary [\s\S]*\[4\] coral_query_telemetry_logs/);
    expect(r.stderr).not.toMatch(/Sources:/);
    expect(r.stderr).toMatch(/Tokens: none \(replay:payment-failure is not a live model\)/);
    const streamed = await coral(['ask', 'Why are checkouts failing?', '--demo', 'payment-failure', '--stream']);
    expect(streamed.stdout).toMatch(/Finding: checkouts fail[\s\S]*\nSources:\n/);
  }, SLOW);

  it('--continue goes back to the colony the conversation used', async () => {
    await coral(['ask', 'what is wrong?', '--demo', 'healthy', '--model', 'triage:automatic', '--json']);
    const next = await coral(['ask', 'and now?', '--model', 'triage:automatic', '--continue']);
    expect(next.stderr).toMatch(/on demo:healthy/);
  }, SLOW);

  it('an unreachable --colony fails at once with what to do, also with --json', async () => {
    const t = Date.now();
    const r = await coral(['ask', 'status', '--colony', 'http://127.0.0.1:1', '--model', 'triage:automatic', '--json']);
    expect(Date.now() - t).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot reach the colony at http:\/\/127\.0\.0\.1:1\/mcp: .*\n\s+Start one with `coral colony serve`/);
    const out = askJsonSchema.parse(JSON.parse(r.stdout));
    expect(out).toMatchObject({ finished: 'error', error: expect.stringMatching(/Cannot reach the colony/) });
  }, SLOW);


  it('--events prints every event as a JSON line, and --continue follows up in the same conversation', async () => {
    const r = await coral(['ask', 'what is wrong?', '--demo', 'healthy', '--model', 'triage:automatic', '--events']);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events[0].type).toBe('user_message');
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'answered', model: 'triage:automatic' });
    const first = askJsonSchema.parse(JSON.parse((await coral(['ask', 'and now?', '--demo', 'healthy', '--model', 'triage:automatic', '--json'])).stdout));
    const next = askJsonSchema.parse(JSON.parse((await coral(['ask', 'anything else?', '--demo', 'healthy', '--model', 'triage:automatic', '--json', '--continue'])).stdout));
    expect(next.conversation_id).toBe(first.conversation_id);
  }, SLOW);

  it('asks before sending telemetry to a cloud model, and --yes consents for scripts', async () => {
    const refused = await coral(['ask', 'q', '--demo', 'healthy', '--model', 'google:gemini-test'], { GEMINI_API_KEY: 'k' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/will be sent to google's cloud API\.\n\s+Confirm once with --yes/);
    const gemini = await fakeGemini([{ text: ['Nothing ', 'is wrong.'] }]);
    try {
      const ok = await coral(['ask', 'q', '--demo', 'healthy', '--model', 'google:gemini-test', '--yes', '--json'], { GEMINI_API_KEY: 'k', CORAL_GEMINI_BASE_URL: gemini.url });
      const out = askJsonSchema.parse(JSON.parse(ok.stdout));
      expect(out.answer).toBe('Nothing is wrong.');
      expect(out.usage).toEqual({ input_tokens: 100, output_tokens: 20 });
      // Remembered: no --yes needed the second time.
      const again = await coral(['ask', 'q', '--demo', 'healthy', '--model', 'google:gemini-test', '--json'], { GEMINI_API_KEY: 'k', CORAL_GEMINI_BASE_URL: gemini.url });
      expect(again.code).toBe(0);
    } finally {
      await gemini.close();
    }
  }, SLOW);

  it('says what is missing: no key, an empty question, a bad model', async () => {
    expect((await coral(['ask', 'q', '--demo', 'healthy', '--model', 'openai:gpt-4o-mini'])).stderr).toMatch(/No API key for openai\.\n\s+Set ai\.ask\.api_keys\.openai: env:\/\/OPENAI_API_KEY/);
    expect((await coral(['ask', '  ', '--demo', 'healthy'])).stderr).toMatch(/The question is empty/);
    expect((await coral(['ask', 'q', '--model', 'gpt4'])).stderr).toMatch(/--model "gpt4" is not a model name/);
  }, SLOW);

  it('coral config show and validate', async () => {
    const show = JSON.parse((await coral(['config', 'show', '--json'])).stdout) as { ai: { ask: { max_tool_rounds: number } } };
    expect(show.ai.ask.max_tool_rounds).toBe(8);
    expect((await coral(['config', 'validate'])).stdout).toMatch(/configuration is valid/);
  });
});

describe('configured MCP servers and recordings', () => {
  it('adds the tools of an MCP server from config, and warns about one that cannot start', async () => {
    const { openAgentSession } = await import('../../src/agent/setup.js');
    const session = await openAgentSession({ demo: 'healthy' }, {
      mcpServers: {
        cd: { command: process.execPath, args: ['--import', 'tsx', 'test/support/echo-mcp-server.ts'] },
        broken: { command: '/nonexistent/binary' },
      },
    });
    try {
      expect(session.hub.tools().map((t) => t.name)).toContain('echo_deploys');
      expect(session.hub.serverOf('echo_deploys')).toBe('cd');
      const r = await session.hub.call('1', 'echo_deploys', { service: 'payment' }, { timeoutMs: 10_000, signal: new AbortController().signal });
      expect(r).toMatchObject({ ok: true, text: 'deploys of payment: v2.1.0 at 10:34' });
      expect(session.hub.warnings.join(' ')).toMatch(/MCP server broken is unavailable/);
    } finally {
      await session.close();
    }
  }, SLOW);

  it('--record saves the rounds, and replay:<file> plays them with the tools run again', async () => {
    const file = join(home, 'recorded.json');
    const first = askJsonSchema.parse(JSON.parse((await coral(['ask', 'what is wrong?', '--demo', 'payment-failure', '--model', 'triage:automatic', '--json', '--record', file])).stdout));
    const replayed = askJsonSchema.parse(JSON.parse((await coral(['ask', 'what is wrong?', '--demo', 'payment-failure', '--model', `replay:${file}`, '--json'])).stdout));
    expect(replayed.tool_calls.map((c) => [c.tool, c.args])).toEqual(first.tool_calls.map((c) => [c.tool, c.args]));
    expect(replayed.answer).toBe(first.answer);
  }, SLOW);
});
