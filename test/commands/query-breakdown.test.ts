import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coralCli } from '../support/coral-cli.js';

const home = mkdtempSync(join(tmpdir(), 'coral-breakdown-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const coral = coralCli({ CORAL_HOME: home }, 60_000);

describe('coral query breakdown', { timeout: 120_000 }, () => {
  it('answers for a service given as the argument or --service, as text or JSON; refuses a bad comparison before loading', async () => {
    const json = await coral('query', 'breakdown', '--service', 'payment', '--demo', 'payment-failure', '--compare', 'slow', '--since', '20m', '-o', 'json');
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { service: string; compare: string; auto: boolean; windowSpans: number; nextStep: string };
    expect([out.service, out.compare, out.auto]).toEqual(['payment', 'slow', false]);
    expect(out.windowSpans).toBeGreaterThan(0);
    const text = await coral('query', 'breakdown', 'payment', '--demo', 'payment-failure', '--threshold', '5ms');
    expect(text.stdout).toMatch(/^Breakdown of payment, last 30m: /m);
    expect(text.stdout).toMatch(/Comparing the failing spans/);
    const bad = await coral('query', 'breakdown', 'payment', '--demo', 'payment-failure', '--compare', 'fast');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/compare must be one of: auto, errors, slow, window/);
    expect(bad.stderr).not.toMatch(/loading demo/);
    expect((await coral('query', 'breakdown', '--demo', 'payment-failure')).stderr).toMatch(/service/);
  });
});
