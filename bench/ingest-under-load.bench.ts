/**
 * Ingest beside reads (issue 31): a colony file of BENCH_LOAD_SPANS spans (default 1,000,000,
 * bench/synthetic.ts, its day ending now so that the tools' default windows hold data) served by
 * `coral colony serve`; an OTLP sender posts 512-span exports at a steady BENCH_LOAD_RATE per second
 * (default 10) for BENCH_LOAD_SECONDS (default 20), first idle, then while 8 MCP clients over HTTP
 * (BENCH_LOAD_CLIENTS) run coral_query_summary, coral_query_traces and coral_query_metrics in loops.
 * Per-export latency P50/P95/max and failures (non-200 or no answer in 10 s, as exporters time out)
 * for both phases, the MCP calls' latency, and the server's peak RSS. Target: P95 <= 250 ms under
 * load, no export failing. BENCH_LOAD_DB: a copy of this colony file is served instead of a new one
 * (e.g. the scale bench's /tmp/coral-scale-10000000.duckdb, for the serve's RSS at 10M spans).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ColonyStore } from '../src/colony/store/store.js';
import { nowNs } from '../src/core/time.js';
import { exportBody, postExport } from './otlp-load.js';
import { populate } from './synthetic.js';
import { latencySummary, report } from './report.js';
import { buildCli, rssMb, startServe } from './serve-child.js';

const SPANS = Number(process.env.BENCH_LOAD_SPANS ?? 1_000_000);
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 8);
/** More `colony serve` arguments, space-separated (e.g. "--max-wal-mb 256"). */
const SERVE_ARGS = (process.env.BENCH_LOAD_SERVE_ARGS ?? '').split(' ').filter(Boolean);
const TARGET_P95_MS = 250;

let next = 0;
/** Exports at a steady rate whatever the answers (an exporter does not wait for the last one), for `seconds`. */
async function sendPhase(url: string, end: bigint): Promise<{ ms: number[]; failures: number }> {
  const sends: Promise<{ status: number; ms: number }>[] = [];
  const started = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sends.push(postExport(url, exportBody(next++, 512, end)));
  }
  const done = await Promise.all(sends);
  return { ms: done.map((d) => d.ms), failures: done.filter((d) => d.status !== 200).length };
}

buildCli();
const dir = mkdtempSync(join(tmpdir(), 'coral-load-bench-'));
const db = join(dir, 'colony.duckdb');
try {
  const end = nowNs();
  if (process.env.BENCH_LOAD_DB) copyFileSync(process.env.BENCH_LOAD_DB, db);
  else {
    const store = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '4GB' });
    await populate(store, SPANS, 200_000, { end });
    await store.close();
  }
  const serve = await startServe(db, dir, SERVE_ARGS);
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(serve.child.pid ?? 0))), 100);
  // Warm: the span keys read by the first write, the code compiled.
  await sendPhase(serve.url, end).catch(() => undefined);
  const idle = await sendPhase(serve.url, end);
  const idleRss = rssPeak;

  const mcp = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'mcp-load-client.ts'), serve.url, String(CLIENTS), 'svc-3'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: mcp.stdout });
  const out: string[] = [];
  const ready = new Promise<void>((resolve) => lines.on('line', (l) => (l === 'ready' ? resolve() : out.push(l))));
  const closed = new Promise<void>((r) => mcp.once('exit', () => r()));
  await ready;
  const loaded = await sendPhase(serve.url, end);
  mcp.stdin.end();
  await closed;
  clearInterval(sampler);
  const calls = JSON.parse(out.join('')) as { calls: number; errors: number; ms: number[] };
  serve.child.kill('SIGTERM');
  await serve.exited;
  const idleLatency = latencySummary(idle.ms);
  const loadLatency = latencySummary(loaded.ms);
  report({
    bench: 'ingest_under_load',
    spans: process.env.BENCH_LOAD_DB ? `copy of ${process.env.BENCH_LOAD_DB}` : SPANS,
    exports_per_sec: RATE,
    spans_per_export: 512,
    seconds_per_phase: SECONDS,
    mcp_clients: CLIENTS,
    serve_args: SERVE_ARGS.join(' '),
    idle_export: { ...idleLatency, failures: idle.failures, exports: idle.ms.length },
    loaded_export: { ...loadLatency, failures: loaded.failures, exports: loaded.ms.length },
    mcp_calls: { ...latencySummary(calls.ms), calls: calls.calls, errors: calls.errors },
    server_rss_peak_mb: { idle: idleRss, loaded: rssPeak },
    target_p95_ms: TARGET_P95_MS,
    meets_target: loadLatency.p95_ms !== null && loadLatency.p95_ms <= TARGET_P95_MS && loaded.failures === 0,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
