/**
 * --from/--to/--since on `coral query`, with the built bundle: an old window read through a running
 * colony (`coral colony serve` holding the file) and from the file alone give the same answer.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../src/colony/store/store.js';
import { startColonyServe, stopColonyServe as stop } from '../support/colony-serve.js';
import { coralCli } from '../support/coral-cli.js';
import { SEC, T0, hexId, ingest, sdkResource, tracesBody } from '../support/otlp-json.js';

// Six checkout requests, one a minute from 2025-12-02 10:30 UTC: a year or more before the clock.
const home = mkdtempSync(join(tmpdir(), 'coral-window-cli-'));
const db = join(home, 'colony.duckdb');
const coral = coralCli({ CORAL_HOME: home, NO_COLOR: '1' }, 60_000);
let serve: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  const file = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '1GB' });
  await ingest(file, 'traces', tracesBody(sdkResource('checkout'), 'x', Array.from({ length: 6 }, (_, i) => ({
    traceId: hexId(16, i + 1, 9), spanId: hexId(8, i + 1, 9), name: 'POST /api/checkout', startNs: T0 + BigInt(i) * 60n * SEC, durationMs: 10 + i,
    attributes: { 'http.request.method': 'POST', 'http.route': '/api/checkout', 'http.response.status_code': i === 0 ? 500 : 200 }, status: i === 0 ? 2 : 0,
  }))));
  await file.close();
  ({ child: serve, url } = await startColonyServe(['--db', db], `${db}.serve.json`, { CORAL_HOME: home }));
}, 120_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) await stop(serve);
  rmSync(home, { recursive: true, force: true });
});

const FROM = '2025-12-02T10:29';
const TO = '2025-12-02T10:40';

describe('coral query over an old window', { timeout: 120_000 }, () => {
  it('--from/--to reach an old window through the running colony, and the heading states it', async () => {
    const r = await coral('query', 'traces', 'checkout', '--db', db, '--from', FROM, '--to', TO);
    expect(r.stderr, r.stderr).toMatch(new RegExp(`using the running colony at ${url}`));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe("Traces for service 'checkout' (2025-12-02 10:29-10:40 UTC (11 min)), failing first, then slowest:");
    expect(r.stdout).toMatch(/Showing|Trace: /);
    const json = JSON.parse((await coral('query', 'traces', 'checkout', '--colony', url, '--from', FROM, '--to', TO, '-o', 'json')).stdout) as { matchedTraces: number; window: { start: string; end: string } };
    expect(json.matchedTraces).toBe(6);
    expect(json.window).toMatchObject({ start: '2025-12-02T10:29:00.000Z', end: '2025-12-02T10:40:00.000Z' });
  });

  it('--from alone runs to now; --to alone goes --since back from it; --since reaches data a year old', async () => {
    const from = JSON.parse((await coral('query', 'health', '--db', db, '--from', FROM, '-o', 'json')).stdout) as { services: { serviceName: string; requests: number }[]; window: { start: string } };
    expect(from.window.start).toBe('2025-12-02T10:29:00.000Z');
    expect(from.services).toEqual([expect.objectContaining({ serviceName: 'checkout', requests: 6 })]);
    const to = await coral('query', 'health', '--db', db, '--to', '2025-12-02T10:33', '--since', '3m');
    expect(to.code, to.stderr).toBe(0);
    expect(to.stdout).toMatch(/^Window: 2025-12-02 10:30-10:33 UTC \(3 min\)\n/);
    const since = JSON.parse((await coral('query', 'traces', '--db', db, '--since', '3000d', '-o', 'json')).stdout) as { matchedTraces: number };
    expect(since.matchedTraces).toBe(6);
  });

  it('refuses a window that ends before it starts, or lies away from the data, saying why', async () => {
    const backwards = await coral('query', 'summary', '--db', db, '--from', TO, '--to', FROM);
    expect(backwards.code).not.toBe(0);
    expect(backwards.stderr).toMatch(/--from must be before --to/);
    const away = await coral('query', 'summary', '--db', db, '--from', '2024-01-01', '--to', '2024-01-02');
    expect(away.code).not.toBe(0);
    expect(away.stderr).toMatch(/the window 2024-01-01 00:00 - 2024-01-02 00:00 UTC \(1 d\) is before the colony's data, which spans 2025-12-02T10:30:00\.000Z/);
    const bad = await coral('query', 'summary', '--db', db, '--from', 'yesterday');
    expect(bad.stderr).toMatch(/Invalid time "yesterday"[\s\S]*13:05 \(UTC|UTC clock time/);
  });

  it('coral ask --from/--to: the automatic triage reads the old window through the running colony, and says which window', async () => {
    const r = await coral('ask', 'how is checkout latency?', '--db', db, '--model', 'triage:automatic', '--from', FROM, '--to', TO);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`using the running colony at ${url}`));
    expect(r.stderr).toContain('coral: window 2025-12-02 10:29-10:40 UTC (11 min), from --from 2025-12-02T10:29 --to 2025-12-02T10:40\n');
    expect(r.stdout).toMatch(/\[OTLP\] POST \/api\/checkout: P50 [\d.]+ms/);
    const json = JSON.parse((await coral('ask', 'how is checkout latency?', '--db', db, '--model', 'triage:automatic', '--from', FROM, '--to', TO, '--json')).stdout) as { tool_calls: { tool: string; args: Record<string, unknown>; ok: boolean }[] };
    expect(json.tool_calls.length).toBeGreaterThan(0);
    for (const c of json.tool_calls) expect(c).toMatchObject({ ok: true, args: { start: '2025-12-02T10:29:00.000Z', end: '2025-12-02T10:40:00.000Z' } });
  });

  it('the file alone answers the same window with the same text', async () => {
    const through = await coral('query', 'summary', '--db', db, '--from', FROM, '--to', TO);
    if (serve) await stop(serve);
    const direct = await coral('query', 'summary', '--db', db, '--from', FROM, '--to', TO);
    expect(direct.stderr).not.toMatch(/running colony/);
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toBe(through.stdout);
    expect(direct.stdout.split('\n')[0]).toBe('Colony summary, 2025-12-02 10:29-10:40 UTC (11 min), compared with the 11 min before.');
  });
});
