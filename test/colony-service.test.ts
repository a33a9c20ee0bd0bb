/**
 * The README's flow, end to end with the built bundle: `coral colony serve` in the background, then
 * demo load, colony status, query, mcp (the SDK client over stdio) and ask on the default colony,
 * all through the running colony; replay over OTLP/gRPC; a token kept out of world-readable files.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startColonyServe, stopColonyServe as stop } from './support/colony-serve.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-service-'));
const db = join(home, 'colony.duckdb');
const runtimeFile = `${db}.serve.json`;
let serve: ChildProcess;
let url: string;

async function coral(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home, NO_COLOR: '1', ...env }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  ({ child: serve, url } = await startColonyServe([], runtimeFile, { CORAL_HOME: home }));
}, 60_000);

afterAll(async () => {
  if (serve.exitCode === null) await stop(serve);
  rmSync(home, { recursive: true, force: true });
});

describe('one colony per machine: the README flow on the default colony', () => {
  it('records where it listens, without secrets', () => {
    const rt = JSON.parse(readFileSync(runtimeFile, 'utf8')) as Record<string, unknown>;
    expect(rt).toMatchObject({ db, mcp: true, tokenFile: null, pid: serve.pid });
    expect(rt.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(rt.otlpGrpc).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('demo load sends into the running colony instead of fighting for the lock', async () => {
    const load = await coral(['demo', 'load', 'payment-failure', '--json']);
    expect(load.stderr).toMatch(/served by a running colony .*loading through its OTLP receiver/);
    expect(load.code).toBe(0);
    expect(JSON.parse(load.stdout)).toMatchObject({ scenario: 'payment-failure', colony: url, failed: 0 });
  }, 180_000);

  it('colony status, query and --colony all read it over its API, and say so', async () => {
    const status = await coral(['colony', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(status.stderr).toMatch(new RegExp(`using the running colony at ${url}`));
    const s = JSON.parse(status.stdout) as { path: string; counts: { spans: number }; services: { serviceName: string }[] };
    expect(s.path).toBe(db);
    expect(s.counts.spans).toBeGreaterThan(50_000);
    expect(s.services.map((x) => x.serviceName)).toContain('payment');

    const summary = await coral(['query', 'summary', '-o', 'json']);
    expect(summary.code).toBe(0);
    expect((JSON.parse(summary.stdout) as { standOut: { service: string }[] }).standOut[0].service).toBe('payment');

    const explicit = await coral(['colony', 'status', '--colony', url]);
    expect(explicit.stdout).toMatch(new RegExp(`colony ${url}/mcp \\(serving ${db}\\)`));

    // CORAL_COLONY names the default colony from anywhere, even where no colony file exists.
    const elsewhere = mkdtempSync(join(tmpdir(), 'coral-other-'));
    const viaEnv = await coral(['query', 'health', 'payment', '-o', 'json'], { CORAL_HOME: elsewhere, CORAL_COLONY: url });
    rmSync(elsewhere, { recursive: true, force: true });
    expect(viaEnv.stderr).toMatch(/using the default colony .* \(CORAL_COLONY\)/);
    expect((JSON.parse(viaEnv.stdout) as { services: { serviceName: string }[] }).services[0].serviceName).toBe('payment');
  }, 120_000);

  it('coral mcp bridges stdio to it: tools, resources and prompts for a desktop client', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/coral.js', 'mcp'], env: { ...(process.env as Record<string, string>), CORAL_HOME: home }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('coral_query_summary');
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain('coral://colony/status');
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['investigate']);
      const health = await client.callTool({ name: 'coral_get_service_health', arguments: { service: 'payment', time_range: '1h' } });
      expect(JSON.stringify(health.structuredContent)).toMatch(/payment/);
      const status = await client.readResource({ uri: 'coral://colony/status' });
      expect(JSON.parse((status.contents[0] as { text: string }).text)).toMatchObject({ path: db });
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/bridging stdio to the colony at/);
  }, 60_000);

  it('coral ask answers from it', async () => {
    const ask = await coral(['ask', 'what is failing?', '--model', 'triage:automatic', '--json']);
    expect(ask.code).toBe(0);
    const out = JSON.parse(ask.stdout) as { answer: string; tool_calls: { tool: string }[] };
    expect(out.tool_calls.length).toBeGreaterThan(0);
    expect(out.answer).toMatch(/payment/);
  }, 60_000);

  it('demo replay honours OTEL_EXPORTER_OTLP_PROTOCOL=grpc and reaches its gRPC port', async () => {
    const replay = await coral(['demo', 'replay', 'healthy', '--speed', '100000', '--json'], { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(replay.stderr).toMatch(/OTLP\/gRPC\) \(from the running colony/);
    const r = JSON.parse(replay.stdout) as { protocol: string; sent: number; failed: unknown[] };
    expect(r).toMatchObject({ protocol: 'grpc', failed: [] });
    expect(r.sent).toBeGreaterThan(100);
  }, 180_000);

  it('refuses a second colony on the same file, then reads the file directly once stopped', async () => {
    const second = await coral(['colony', 'serve', '--otlp-port', '0', '--otlp-grpc-port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/A colony is already serving .* at http/);
    await stop(serve);
    expect(existsSync(runtimeFile)).toBe(false);
    const status = await coral(['colony', 'status']);
    expect(status.code).toBe(0);
    expect(status.stderr).not.toMatch(/running colony/);
    expect(status.stdout).toMatch(new RegExp(`^colony ${db}\\n`));
  }, 120_000);
});

describe('a colony with a token', () => {
  it('keeps the token in an owner-only file that readers use', async () => {
    const tokenDb = join(home, 'secure.duckdb');
    const { child } = await startColonyServe(['--db', tokenDb, '--token', 'tok-123'], `${tokenDb}.serve.json`, { CORAL_HOME: home });
    try {
      const rt = readFileSync(`${tokenDb}.serve.json`, 'utf8');
      expect(rt).not.toMatch(/tok-123/);
      const tokenFile = (JSON.parse(rt) as { tokenFile: string }).tokenFile;
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe('tok-123');
      const status = await coral(['colony', 'status', '--db', tokenDb, '--json']);
      expect(status.code).toBe(0);
      // CORAL_COLONY_TOKEN goes with --colony; the colony found beside --db gets its own token file.
      const wrong = await coral(['colony', 'status', '--colony', (JSON.parse(rt) as { url: string }).url], { CORAL_COLONY_TOKEN: 'nope' });
      expect(wrong.code).toBe(1);
      expect((await coral(['colony', 'status', '--db', tokenDb], { CORAL_COLONY_TOKEN: 'nope' })).code).toBe(0);
    } finally {
      await stop(child);
    }
    expect(existsSync(`${tokenDb}.token`)).toBe(false);
  }, 120_000);
});
