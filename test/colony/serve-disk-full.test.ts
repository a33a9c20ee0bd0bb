/**
 * `coral colony serve` (the built bundle, default flags) on a colony file whose disk fills: exports
 * get 503 + Retry-After, the log and `coral colony status` say where the disk is full, reads answer,
 * and once space frees the exporter's retry is taken without a restart; nothing acknowledged is lost.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../src/colony/store/store.js';
import { startColonyServe, stopColonyServe } from '../support/colony-serve.js';
import { sdkResource, tracesBody } from '../support/otlp-json.js';
import { fillDisk, mountTmpfs } from '../support/tmpfs.js';

const run = promisify(execFile);
const disk = mountTmpfs(48);
const skip = 'skip' in disk ? disk.skip : null;
const home = mkdtempSync(join(tmpdir(), 'coral-serve-full-'));
let serve: ChildProcess | null = null;

afterAll(async () => {
  if (serve && serve.exitCode === null) await stopColonyServe(serve);
  if ('unmount' in disk) disk.unmount();
  rmSync(home, { recursive: true, force: true });
});

const SPANS = 500;
const T0 = 1_700_000_000_000_000_000n;
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
/** Export k: SPANS spans of ids of their own. */
function exportBody(k: number): string {
  const spans = Array.from({ length: SPANS }, (_, i) => ({
    traceId: hex(k * SPANS + i + 1, 32),
    spanId: hex(k * SPANS + i + 1, 16),
    name: `GET /orders/${i % 9}`,
    startNs: T0 + BigInt(k * SPANS + i) * 1_000_000n,
    durationMs: 3,
    attributes: { 'http.route': `/orders/${i % 9}`, 'n': k * SPANS + i, 'note': 'x'.repeat(200) },
  }));
  return JSON.stringify(tracesBody(sdkResource('orders'), 'test', spans));
}

async function send(url: string, k: number): Promise<Response> {
  return fetch(`${url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: exportBody(k) });
}

describe.skipIf(skip !== null)(`colony serve on a disk that fills${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('answers 503 + Retry-After while full, says so, answers reads, and takes the retries once space frees', async () => {
    const root = 'dir' in disk ? disk.dir : '';
    const db = join(root, 'colony.duckdb');
    let log = '';
    const started = await startColonyServe(['--db', db], `${db}.serve.json`, { CORAL_HOME: home });
    serve = started.child;
    serve.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    const acked: number[] = [];
    for (let k = 0; k < 2; k++) {
      expect((await send(started.url, k)).status).toBe(200);
      acked.push(k);
    }
    const filler = fillDisk(root, 512 * 1024);
    let k = 2;
    let refused: Response | null = null;
    for (; k < 200; k++) {
      const res = await send(started.url, k);
      if (res.status !== 200) {
        refused = res;
        break;
      }
      acked.push(k);
    }
    expect(refused?.status).toBe(503);
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused?.json()) as { message: string }).message).toMatch(/disk full at /);
    await expect.poll(() => log, { timeout: 5000 }).toMatch(new RegExp(`disk full at ${root} \\([\\d,]+ bytes free\\); exports are refused with 503 until space frees`));

    const status = await run(process.execPath, ['dist/coral.js', 'colony', 'status', '--db', db, '--json'], { env: { ...process.env, CORAL_HOME: home } });
    const s = JSON.parse(status.stdout) as { counts: { spans: number }; notes?: string[] };
    expect(s.counts.spans).toBe(acked.length * SPANS);
    expect(s.notes?.join('\n')).toMatch(new RegExp(`disk full at ${root}`));

    rmSync(filler);
    // Ingest resumes within 10 s of space freeing, with no restart: serve says so, then takes the retry.
    await expect.poll(() => log, { timeout: 10_000 }).toMatch(/disk space back at .*exports are taken again/);
    expect((await send(started.url, k)).status).toBe(200);
    acked.push(k);
    // The OTLP retry contract: what was acknowledged may come again, and is stored once.
    for (const a of acked) expect((await send(started.url, a)).status).toBe(200);
    await stopColonyServe(serve);

    const store = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '1GB' });
    try {
      const [r] = await store.db.query<{ spans: number; distinct: number }>('SELECT count(*)::INTEGER AS spans, count(DISTINCT span_id)::INTEGER AS "distinct" FROM otel_traces');
      expect(r).toEqual({ spans: acked.length * SPANS, distinct: acked.length * SPANS });
    } finally {
      await store.close();
    }
  }, 120_000);
});
