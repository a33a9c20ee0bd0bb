import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs the built `coral` bundle; resolves with its output whatever the exit code. */
async function coral(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('coral CLI (the built bundle)', () => {
  it('answers --version and --help', async () => {
    expect((await coral('--version')).stdout.trim()).toBe(pkg.version);
    const help = await coral('--help');
    expect(help.stdout).toMatch(/colony/);
    expect(help.stdout).toMatch(/demo/);
  });

  it('lists the demo scenarios as text and JSON', async () => {
    expect((await coral('demo', 'list')).stdout).toMatch(/payment-failure .* spans/);
    const list = JSON.parse((await coral('demo', 'list', '--json')).stdout) as { name: string; truth: { culprits: string[] } }[];
    expect(list.find((s) => s.name === 'payment-failure')?.truth.culprits).toEqual(['payment']);
  });

  it('loads a scenario into a colony file that colony status then describes', async () => {
    const db = join(home, 'demo.duckdb');
    const load = await coral('demo', 'load', 'healthy', '--db', db, '--json', '--at', '2025-12-02T12:00:00Z');
    expect(load.code).toBe(0);
    const loaded = JSON.parse(load.stdout) as { to: string; accepted: { spans: number } };
    expect(loaded.to).toBe('2025-12-02T12:00:00.000Z');
    expect(load.stderr).toMatch(/loading healthy: .*spans/);
    const status = JSON.parse((await coral('colony', 'status', '--db', db, '--json')).stdout) as { counts: { spans: number }; services: { serviceName: string; sources: string[] }[] };
    expect(status.counts.spans).toBe(loaded.accepted.spans);
    expect(status.services.find((s) => s.serviceName === 'checkout')?.sources).toEqual(['ebpf', 'otlp']);
  });

  it('says what was wrong and what is accepted, with exit code 1', async () => {
    const unknown = await coral('demo', 'load', 'nope', '--db', ':memory:');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown demo scenario "nope"\.\n\s+Available: healthy, payment-failure/);
    const port = await coral('colony', 'serve', '--db', ':memory:', '--otlp-port', 'http');
    expect(port.stderr).toMatch(/Invalid --otlp-port "http"\.\n\s+Expected a whole number from 0 to 65535/);
    const speed = await coral('demo', 'replay', 'healthy', '--speed', 'fast');
    expect(speed.stderr).toMatch(/Invalid --speed "fast"/);
  });

  it('explains a port that is already in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    const res = await coral('colony', 'serve', '--db', ':memory:', '--otlp-port', String(port));
    blocker.close();
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use.*\\n.*--otlp-port`));
  });
});
