/**
 * Crash recovery of `coral colony serve` (issue 31): a colony file of BENCH_CRASH_SPANS spans
 * (default 1,000,000, bench/synthetic.ts), served with its write-ahead log filled by OTLP exports to
 * the largest size the colony allows (--max-wal-mb, default the serve limit; BENCH_CRASH_WAL_MB
 * sets another to measure the trade-off), then kill -9: the time until it listens again (target
 * <= 5 s at 1M spans), the log replayed, and a second kill -9 and reopen with no writes between,
 * which shows the log was checkpointed at the first reopen. Beside them, the reopen after a clean stop.
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ColonyStore } from '../src/colony/store/store.js';
import { SERVE_CHECKPOINT_THRESHOLD_MB } from '../src/colony/store/db.js';
import { exportBody, postExport } from './otlp-load.js';
import { populate } from './synthetic.js';
import { report } from './report.js';
import { type ServeChild, buildCli, startServe } from './serve-child.js';

const SPANS = Number(process.env.BENCH_CRASH_SPANS ?? 1_000_000);
const WAL_MB = Number(process.env.BENCH_CRASH_WAL_MB ?? SERVE_CHECKPOINT_THRESHOLD_MB);
const TARGET_MS = 5000;
const MB = 1024 * 1024;
/** Filled to this share of the limit: DuckDB checkpoints once a commit takes the log past it. */
const FILL = 0.9;

const walMb = (db: string) => (existsSync(`${db}.wal`) ? statSync(`${db}.wal`).size / MB : 0);
const round = (x: number, d = 1) => Number(x.toFixed(d));

async function kill9(s: ServeChild): Promise<void> {
  s.child.kill('SIGKILL');
  await s.exited;
}

buildCli();
const dir = mkdtempSync(join(tmpdir(), 'coral-crash-bench-'));
const db = join(dir, 'colony.duckdb');
try {
  const store = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '4GB' });
  await populate(store, SPANS, 0);
  await store.close();
  const args = ['--no-mcp', '--max-wal-mb', String(WAL_MB)];

  const clean = await startServe(db, dir, args);
  // Up to the limit, never past it (a checkpoint empties the log): exports 4 at a time, the log read after each.
  let n = 0;
  let failures = 0;
  const fillStarted = performance.now();
  while (walMb(db) < FILL * WAL_MB) {
    const sent = await Promise.all([0, 1, 2, 3].map(() => postExport(clean.url, exportBody(n++))));
    failures += sent.filter((r) => r.status !== 200).length;
    if (performance.now() - fillStarted > 600_000) throw new Error(`the log reached only ${walMb(db).toFixed(1)} MB in 10 minutes`);
  }
  const wal = walMb(db);
  await kill9(clean);

  const first = await startServe(db, dir, args);
  const walAfterReopen = walMb(db);
  await kill9(first);
  const second = await startServe(db, dir, args);
  await kill9(second);
  report({
    bench: 'crash_reopen',
    spans: SPANS + n * 512,
    wal_limit_mb: WAL_MB,
    wal_at_kill_mb: round(wal),
    exports_to_fill: n,
    fill_failures: failures,
    clean_start_ms: Math.round(clean.listenMs),
    reopen_after_kill_ms: Math.round(first.listenMs),
    wal_after_reopen_mb: round(walAfterReopen, 2),
    second_reopen_after_kill_ms: Math.round(second.listenMs),
    replay_ms_per_mb: round((first.listenMs - second.listenMs) / wal),
    target_ms: TARGET_MS,
    meets_target: first.listenMs <= TARGET_MS,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
