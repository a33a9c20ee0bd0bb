import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { DEFAULT_MAX_EXPORT_ITEMS } from '../src/colony/otlp/export-items.js';

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
    // The help's default is a literal (cli.ts loads no colony module): it must be the receivers' own.
    const serve = (await coral('colony', 'serve', '--help')).stdout.replace(/\s+/g, ' ');
    expect(serve).toContain(`--max-export-items <n> most spans (with their events and links), log records and metric data points in one export (beyond: 413, gRPC RESOURCE_EXHAUSTED) (default: "${DEFAULT_MAX_EXPORT_ITEMS}")`);
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
    const workers = await coral('colony', 'serve', '--db', ':memory:', '--decode-workers', '99');
    expect(workers.stderr).toMatch(/Invalid --decode-workers "99"\.\n\s+Expected a whole number from 0 to 16/);
    const items = await coral('colony', 'serve', '--db', ':memory:', '--max-export-items', '0');
    expect(items.stderr).toMatch(/Invalid --max-export-items "0"\.\n\s+Expected a whole number from 1 to 16777216/);
    const wal = await coral('colony', 'serve', '--clickhouse', 'http://127.0.0.1:1', '--max-wal-mb', '8');
    expect(wal.stderr).toMatch(/--max-wal-mb sets the write-ahead log of a DuckDB colony file[^\n]*\n\s+Drop --max-wal-mb, or serve a --db FILE/);
    const speed = await coral('demo', 'replay', 'healthy', '--speed', 'fast');
    expect(speed.stderr).toMatch(/Invalid --speed "fast"/);
  });

  it('explains a port that is already in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    const res = await coral('colony', 'serve', '--db', ':memory:', '--otlp-port', String(port), '--otlp-grpc-port', '0');
    blocker.close();
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use.*\\n.*--otlp-port`));
  });
});

describe('coral query and coral mcp (the built bundle)', () => {
  it('answers the porcelain tools from a demo colony, as tables, trees and JSON', async () => {
    const metrics = await coral('query', 'metrics', 'payment', '--demo', 'payment-failure', '--since', '20m');
    expect(metrics.code).toBe(0);
    expect(metrics.stdout).toMatch(/│ \[eBPF\] │ grpc +│ oteldemo\.PaymentService\/Charge/);
    expect(metrics.stdout).toMatch(/│ \[OTLP\] │ grpc +│ oteldemo\.PaymentService\/Charge/);
    const summary = JSON.parse((await coral('query', 'summary', '--demo', 'payment-failure', '-o', 'json')).stdout) as { standOut: { service: string }[] };
    expect(summary.standOut[0].service).toBe('payment');
    const traces = await coral('query', 'traces', 'checkout', '--demo', 'payment-failure', '--min-duration', '30ms', '--max', '1');
    expect(traces.stdout).toMatch(/^Slow Traces for service 'checkout' \(last 1h, > 30ms\), failing first, then slowest:\nShowing 1 of \d+ matching traces\.\n\nTrace: [0-9a-f]{32}/);
    expect(traces.stdout).toMatch(/└─ \[OTLP\] frontend-proxy: ingress/);
  }, 90_000);

  it('refuses bad query options with what is accepted', async () => {
    expect((await coral('query', 'metrics', 'payment', '--demo', 'healthy', '-o', 'yaml')).stderr).toMatch(/--output "yaml" is not available here\.\n\s+This command prints as table, text, json/);
    expect((await coral('query', 'metrics', 'payment', '--demo', 'healthy', '--protocol', 'soap')).stderr).toMatch(/protocol must be one of: auto, http, grpc, sql/);
    expect((await coral('query', 'traces', '--demo', 'healthy', '--min-duration', 'slow')).stderr).toMatch(/Invalid duration "slow"/);
  });

  it('prints the MCP client configuration', async () => {
    const cfg = JSON.parse((await coral('mcp', 'config', '--demo', 'healthy')).stdout) as { mcpServers: { coral: { command: string; args: string[] } } };
    expect(cfg.mcpServers.coral.command).toBe(process.execPath);
    expect(cfg.mcpServers.coral.args.slice(-3)).toEqual(['mcp', '--demo', 'healthy']);
    expect(cfg.mcpServers.coral.args[0]).toMatch(/dist\/coral\.js$/);
  });

  it('end to end: colony serve, demo replay over OTLP, then query the running colony over MCP', async () => {
    const serve = spawn(process.execPath, ['dist/coral.js', 'colony', 'serve', '--db', ':memory:', '--otlp-port', '0', '--otlp-grpc-port', '0'], { env: { ...process.env, CORAL_HOME: home } });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        serve.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /OTLP\/HTTP listening on (http:\/\/\S+)/.exec(err);
          if (m && err.includes('MCP (Streamable HTTP)')) resolve(m[1]);
        });
        serve.on('exit', () => reject(new Error(`colony serve exited: ${err}`)));
      });
      const replay = await coral('demo', 'replay', 'product-catalog-failure', '--speed', '100000', '--otlp', url);
      expect(replay.code).toBe(0);
      expect(replay.stderr).toMatch(/\d+ exports sent/);
      const health = JSON.parse((await coral('query', 'health', '--colony', url, '-o', 'json')).stdout) as { services: unknown[] };
      expect(health.services.length).toBe(15);
      const metrics = await coral('query', 'metrics', 'product-catalog', '--colony', url, '--grpc-method', 'GetProduct', '-o', 'text');
      expect(metrics.stdout).toMatch(/GetProduct, Requests: \d+/);
      const wrong = await coral('query', 'summary', '--colony', 'http://127.0.0.1:9');
      expect(wrong.stderr).toMatch(/Cannot reach the colony at http:\/\/127\.0\.0\.1:9\/mcp/);
    } finally {
      serve.kill('SIGINT');
    }
  }, 60_000);
});

describe('coral honeycomb (the built bundle, bundled fake environment)', () => {
  const noKey = async (...args: string[]) => {
    const saved = process.env.HONEYCOMB_API_KEY;
    delete process.env.HONEYCOMB_API_KEY;
    try {
      return await coral(...args);
    } finally {
      if (saved !== undefined) process.env.HONEYCOMB_API_KEY = saved;
    }
  };

  it('searches and summarises the fake environment without a key, saying so', async () => {
    const search = await noKey('honeycomb', 'search', 'latency');
    expect(search.stderr).toMatch(/using the bundled fake Honeycomb environment "demo" \(no HONEYCOMB_API_KEY set\)/);
    expect(search.stdout).toMatch(/│ latency_bucket +│ __environment__ │ string │ 0\.900/);
    const json = JSON.parse((await noKey('honeycomb', 'search', 'status', '--dataset', 'payment', '--limit', '2', '-o', 'json')).stdout) as { results: unknown[]; has_more: boolean };
    expect(json.results).toHaveLength(2);
    expect(json.has_more).toBe(true);
    const summary = await noKey('honeycomb', 'summary', '--fake-environment', 'large', '--no-samples');
    expect(summary.stdout).toMatch(/^Environment large: 64 datasets/);
    expect(summary.stdout).toMatch(/svc-12 \(stale\)/);
  });

  it('serves the two tools over stdio (coral honeycomb mcp)', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/coral.js', 'honeycomb', 'mcp', '--demo'], stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['honeycomb_search_columns', 'honeycomb_get_environment_summary']);
      const r = await client.callTool({ name: 'honeycomb_search_columns', arguments: { query: 'loyalty' } });
      expect(JSON.parse((r.content as { text: string }[])[0].text).results[0]).toMatchObject({ column: 'app.loyalty.level', dataset: 'payment', similarity: 0.8 });
    } finally {
      await client.close();
    }
  });

  it('rejects a bad limit with what is accepted', async () => {
    expect((await noKey('honeycomb', 'search', 'x', '--limit', '5000')).stderr).toMatch(/Invalid --limit "5000"\.\n\s+Expected a whole number from 1 to 1000/);
  });
});
