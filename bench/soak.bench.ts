/**
 * A long soak of `coral colony serve` (issue 39): a new colony file served with its default flags and
 * `--retain` BENCH_SOAK_RETAIN (default 1h), OTLP/HTTP exports of 500 spans at a steady
 * BENCH_SOAK_SPANS_PER_S (default 2,000) spans per second, and BENCH_SOAK_CLIENTS (default 8) MCP
 * sessions each calling a porcelain tool every 5 s, for BENCH_SOAK_MINUTES (default 120).
 *
 * BENCH_SOAK_SHAPE says when the spans started. `exporter` (the default), as an SDK sends them: in the
 * 5 s before the export (its batch delay), and one export in LATE_EVERY holding spans that started up
 * to an hour before (long operations ending). `spread`: every export's spans spread over the hour
 * before it. Once the writer's key memory turns over (~8M spans, ~67 min at 2k/s) a span older than
 * what it remembers may be a forgotten re-send, so such a batch takes the exact upsert path, whose
 * cost grows with the table (span-key-window.ts): `spread` measures that path under load. Every BENCH_SOAK_REPORT_S (default 300) one line:
 * the server's RSS and the exports' latency in that interval; at the end the whole run's figures and
 * the verdict against the targets: RSS over the second half grows at most 10% (retention bounds the
 * data after the first hour, so memory must level off), export P95 <= 250 ms and max <= 2 s, no
 * export failing. Run it alone on the machine: the latency targets are for a quiet one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { nowNs } from '../src/core/time.js';
import { exportBody, postExport } from './otlp-load.js';
import { latencySummary, report } from './report.js';
import { buildCli, rssMb, startServe } from './serve-child.js';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 120);
const REPORT_S = Number(process.env.BENCH_SOAK_REPORT_S ?? 300);
const SPANS_PER_S = Number(process.env.BENCH_SOAK_SPANS_PER_S ?? 2000);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 8);
const RETAIN = process.env.BENCH_SOAK_RETAIN ?? '1h';
const SHAPE = process.env.BENCH_SOAK_SHAPE ?? 'exporter';
if (SHAPE !== 'exporter' && SHAPE !== 'spread') throw new Error(`BENCH_SOAK_SHAPE must be exporter or spread, not ${SHAPE}`);
const LATE_EVERY = 100;
const SPANS = 500;
/** Seconds before its export that an export's spans started in. */
const spreadOf = (i: number) => (SHAPE === 'spread' || i % LATE_EVERY === LATE_EVERY - 1 ? 3600 : 5);
const TARGETS = { rssGrowthSecondHalfPct: 10, exportP95Ms: 250, exportMaxMs: 2000 };

buildCli();
const dir = mkdtempSync(join(tmpdir(), 'coral-soak-'));
try {
  const serve = await startServe(join(dir, 'colony.duckdb'), dir, ['--retain', RETAIN]);
  const pid = serve.child.pid ?? 0;
  const mcp = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'mcp-load-client.ts'), serve.url, String(CLIENTS), 'load-3', '5000'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: mcp.stdout });
  const out: string[] = [];
  await new Promise<void>((resolve) => lines.on('line', (l) => (l === 'ready' ? resolve() : out.push(l))));
  const closed = new Promise<void>((r) => mcp.once('exit', () => r()));

  const exportsPerS = SPANS_PER_S / SPANS;
  const all: number[] = [];
  let window: number[] = [];
  let failures = 0;
  const samples: { minute: number; rss_mb: number }[] = [];
  const started = performance.now();
  const sample = () => {
    const minute = Math.round((performance.now() - started) / 6000) / 10;
    const rss = rssMb(pid);
    samples.push({ minute, rss_mb: rss });
    report({ bench: 'soak_interval', minute, server_rss_mb: rss, exports: window.length, ...latencySummary(window), failures_so_far: failures });
    window = [];
  };
  sample();
  const reporter = setInterval(sample, REPORT_S * 1000);
  const sends: Promise<void>[] = [];
  const total = Math.floor(MINUTES * 60 * exportsPerS);
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / exportsPerS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // An exporter does not wait for the last answer: each export is timed on its own.
    const sent = postExport(serve.url, exportBody(i, SPANS, nowNs(), spreadOf(i))).then(({ status, ms }) => {
      if (status !== 200) failures++;
      all.push(ms);
      window.push(ms);
    });
    sends.push(sent);
    if (sends.length > 1000) await Promise.all(sends.splice(0, sends.length));
  }
  await Promise.all(sends);
  clearInterval(reporter);
  sample();
  mcp.stdin.end();
  await closed;
  const calls = JSON.parse(out.join('')) as { calls: number; errors: number; ms: number[] };
  serve.child.kill('SIGTERM');
  await serve.exited;
  const half = samples.find((s) => s.minute >= MINUTES / 2) ?? samples[0];
  const last = samples[samples.length - 1];
  const growth = Math.round(((last.rss_mb - half.rss_mb) / half.rss_mb) * 1000) / 10;
  const latency = latencySummary(all);
  report({
    bench: 'soak',
    minutes: MINUTES,
    shape: SHAPE,
    retain: RETAIN,
    spans_per_sec: SPANS_PER_S,
    mcp_clients: CLIENTS,
    exports: all.length,
    failures,
    export: latency,
    server_rss_mb: { start: samples[0].rss_mb, half: half.rss_mb, end: last.rss_mb, peak: Math.max(...samples.map((s) => s.rss_mb)) },
    rss_growth_second_half_pct: growth,
    mcp_calls: { ...latencySummary(calls.ms), calls: calls.calls, errors: calls.errors },
    targets: TARGETS,
    meets_target: growth <= TARGETS.rssGrowthSecondHalfPct && (latency.p95_ms ?? Infinity) <= TARGETS.exportP95Ms && (latency.max_ms ?? Infinity) <= TARGETS.exportMaxMs && failures === 0,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
