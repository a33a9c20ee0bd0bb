import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConsoleEngine, explainModelError } from '../../src/console/engine.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-start-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('console startup errors say what to do', () => {
  it('lists the scenarios for an unknown --scenario, without a stack trace', async () => {
    const r = await run(process.execPath, ['dist/coral.js', '--scenario', 'nosuch'], { env: { ...process.env, CORAL_HOME: home } }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect('code' in r ? r.code : 0).not.toBe(0);
    expect(r.stderr).toContain('Unknown scenario "nosuch"');
    expect(r.stderr).toMatch(/Available: healthy, payment-failure, .*kafka-queue-problems/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('names an unreachable colony\'s URL and what to check', async () => {
    const engine = new ConsoleEngine({ colony: 'http://127.0.0.1:9', model: 'triage:automatic' });
    const statuses: string[] = [];
    engine.subscribe((e) => {
      if (e.type === 'status' && e.patch.message) statuses.push(e.patch.message);
    });
    await expect(engine.start()).rejects.toThrow(/^Cannot reach the colony at http:\/\/127\.0\.0\.1:9\/mcp: .*Start one with `coral colony serve`.* Or start without --colony for the demo\.$/);
    expect(statuses).toContain('✗ colony unreachable: http://127.0.0.1:9');
    await engine.close();
  });

  it('answers a model it cannot make with examples of ones it can', () => {
    const engine = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic' });
    const notices: string[] = [];
    engine.subscribe((e) => {
      if (e.type === 'notice' && e.error) notices.push(e.text);
    });
    engine.runCommand(':model nonsense:thing');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('Examples: :model ollama:llama3.2');
  });

  it('names where an unreachable model was looked for', () => {
    expect(explainModelError('Connection error.', 'ollama:llama3.2', { OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' })).toBe('Connection error. Could not reach ollama:llama3.2 at http://127.0.0.1:9/v1 (is `ollama serve` running, and the model pulled?). :model switches to another model.');
    expect(explainModelError('Rate limited', 'openai:gpt-4o-mini')).toBe('Rate limited');
  });
});
