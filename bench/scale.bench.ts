/**
 * Scale: the colony's reads and open time as it grows (issue 33). For each size in BENCH_SCALE_SPANS
 * (default 1M, 3M, 10M spans) and each backend (BENCH_SCALE_BACKENDS, default duckdb,clickhouse), a
 * colony with the demo's realism (scale-colony.ts) is built at ingest speed into a DuckDB file and an
 * embedded ClickHouse (chdb), kept in BENCH_SCALE_DIR (default /tmp: coral-scale-N.duckdb,
 * coral-scale-N-chdb/) and reused by the next run unless BENCH_SCALE_REBUILD=1. Then, in a fresh
 * process per size and backend (ClickHouse: after a first open's background work is done): open for reading, open for writing (as `colony serve` opens: the
 * span keys its first write needs), coral_query_summary (30 m), coral_query_traces,
 * coral_query_metrics, trace by id, coral_query_breakdown, the console's first look (summary and
 * worst traces at once), each P50 of BENCH_SCALE_RUNS (default 5) with its CPU P50, the process's
 * peak RSS, and (DuckDB) the pause one retention step's DELETE costs (rolled back). One JSON line
 * per size and backend on stdout (the fields first); progress and the curve (each figure
 * per size, and the largest size's against the smallest) on stderr.
 *
 * Unattended: `BENCH_SCALE_SPANS=1000000,3000000,10000000 npm run bench -- scale`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Colony } from '../src/colony/store/colony.js';
import { ColonyStore } from '../src/colony/store/store.js';
import { ClickHouseStore } from '../src/colony/store/clickhouse/store.js';
import { openChClient } from '../src/colony/store/clickhouse/client.js';
import { RETENTION_STEP_ROWS, deleteOlderThan } from '../src/colony/store/retention.js';
import { toolByName } from '../src/colony/tools/index.js';
import { runTool } from '../src/colony/tools/run.js';
import { createToolContext } from '../src/colony/tools/types.js';
import { SCALE_END, hoursFor, populateScale, scaleScenario, templateHour } from './scale-colony.js';
import { report, timeRuns } from './report.js';
import { type Backend, HAVE_CHDB, chDir, doneMark, duckPath, log } from './scale-files.js';
import { copyHours } from './scale-clickhouse.js';

const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 5);
const SERVICE = 'checkout';
const WINDOW_NS = 30n * 60_000_000_000n;
/** BENCH_SCALE_TRACE_PROJECTION=0: ClickHouse without coral's trace projection (trace-projection.ts), for a before/after. */
const TRACE_PROJECTION = process.env.BENCH_SCALE_TRACE_PROJECTION === '0' ? false : undefined;


async function openStore(b: Backend, n: number, forWriting: boolean): Promise<Colony> {
  if (b === 'duckdb') {
    const store = await ColonyStore.open({ path: duckPath(n) });
    // What `colony serve`'s first write waits for before it commits.
    if (forWriting) await store.writer.loadSpanKeys();
    return store;
  }
  return ClickHouseStore.open({ target: { kind: 'chdb', dir: chDir(n), database: 'scale' }, create: forWriting, traceProjection: TRACE_PROJECTION });
}

async function build(b: Backend, n: number): Promise<void> {
  rmSync(doneMark(b, n), { force: true });
  rmSync(b === 'duckdb' ? duckPath(n) : chDir(n), { recursive: true, force: true });
  if (b === 'duckdb') rmSync(`${duckPath(n)}.wal`, { force: true });
  const scenario = scaleScenario();
  const template = await templateHour(scenario.name);
  const perHour = template.reduce((a, t) => a + t.spans.length, 0);
  const hours = hoursFor(n, perHour);
  log(`${b} ${n}: building ${hours} hours of ${scenario.name} (${perHour} spans an hour) into ${b === 'duckdb' ? duckPath(n) : chDir(n)}`);
  const store = await openStore(b, n, true);
  const t = performance.now();
  const progress = (h: number) => {
    if (h % 5 === 0 || h === hours) {
      const s = (performance.now() - t) / 1000;
      log(`${b} ${n}: ${h}/${hours} hours, ${h * perHour} spans, ${Math.round((h * perHour) / s)} spans/s`);
    }
  };
  // ClickHouse: the newest hour through coral's writer, the earlier ones copied inside ClickHouse (scale-clickhouse.ts).
  await populateScale(store, template, b === 'duckdb' ? hours : 1, progress);
  await store.close();
  if (b === 'clickhouse') {
    const ch = await openChClient({ kind: 'chdb', dir: chDir(n), database: 'scale' });
    try {
      await copyHours(ch, 'scale', hours, progress);
    } finally {
      await ch.close();
    }
  }
  const seconds = (performance.now() - t) / 1000;
  writeFileSync(doneMark(b, n), JSON.stringify({ spans: hours * perHour, hours, seconds, spansPerSecond: Math.round((hours * perHour) / seconds) }));
  log(`${b} ${n}: built in ${seconds.toFixed(0)} s`);
}

/**
 * A first open may start background work on the cached colony (ClickHouse: materializing coral's
 * trace projection on parts built before it existed, ~15 s at 10M spans): waited for, so the figures
 * measure the colony, not its one-time upgrade. In a process of its own: its memory is not the figures'.
 */
async function settle(b: Backend, n: number): Promise<void> {
  await (await openStore(b, n, true)).close();
  const ch = await openChClient({ kind: 'chdb', dir: chDir(n), database: 'scale' });
  try {
    for (let waited = 0; ; waited++) {
      const [r] = await ch.query<{ n: number }>(`SELECT toInt32(count()) AS n FROM system.mutations WHERE database = 'scale' AND NOT is_done`);
      if (r.n === 0) return;
      if (waited % 10 === 0) log(`${b} ${n}: waiting for ${r.n} background mutation(s) of the first open`);
      await new Promise((done) => setTimeout(done, 1000));
    }
  } finally {
    await ch.close();
  }
}

/** The figures of one size and backend, measured in a process of their own (its RSS is theirs). */
async function measure(b: Backend, n: number): Promise<void> {
  const built = JSON.parse(readFileSync(doneMark(b, n), 'utf8')) as { spans: number };
  const ms = (x: number) => Number(x.toFixed(1));
  const openTime = (forWriting: boolean) => timeRuns(async () => (await openStore(b, n, forWriting)).close(), 3);
  const { p50: openRead, cpuP50: openReadCpu } = await openTime(false);
  const { p50: openWrite, cpuP50: openWriteCpu } = await openTime(true);
  const store = await openStore(b, n, true);
  const now = () => SCALE_END;
  const ctx = createToolContext(store, now);
  const found = await store.searchTraces({ range: { fromNs: SCALE_END - WINDOW_NS, toNs: SCALE_END }, service: SERVICE, maxTraces: 1, order: 'recent' });
  const traceId = found.traces[0]?.traceId;
  if (!traceId) throw new Error(`no ${SERVICE} trace in the last 30 minutes of ${b} ${n}`);
  // CPU P50s beside the wall clock's: on a shared machine the wall clock is mostly the other load.
  const cpu: Record<string, number> = {};
  const tool = async (name: string, args: Record<string, unknown>, figure: string) => {
    const def = toolByName(name);
    if (!def) throw new Error(name);
    const t = await timeRuns(() => runTool(def, ctx, args), RUNS);
    log(`${b} ${n}: ${name} ${JSON.stringify(args)} P50 ${ms(t.p50)} ms (max ${ms(t.max)}, CPU P50 ${ms(t.cpuP50)} ms)`);
    cpu[`${figure}_cpu_ms`] = ms(t.cpuP50);
    return ms(t.p50);
  };
  // The console's first look (console/engine.ts firstLook): the summary and the worst traces, asked at once.
  const firstLook = async () => {
    const [summary, traces] = [toolByName('coral_query_summary'), toolByName('coral_query_traces')];
    if (!summary || !traces) throw new Error('first look tools');
    const t = await timeRuns(() => Promise.all([runTool(summary, ctx, { time_range: '30m' }), runTool(traces, ctx, { max_traces: 5, time_range: '30m' })]), RUNS);
    log(`${b} ${n}: the console's first look P50 ${ms(t.p50)} ms (CPU P50 ${ms(t.cpuP50)} ms)`);
    cpu.first_look_cpu_ms = ms(t.cpuP50);
    return ms(t.p50);
  };
  const figures = {
    summary_ms: await tool('coral_query_summary', {}, 'summary'),
    traces_ms: await tool('coral_query_traces', { service: SERVICE }, 'traces'),
    metrics_ms: await tool('coral_query_metrics', { service: SERVICE }, 'metrics'),
    trace_ms: await tool('coral_get_trace_by_id', { trace_id: traceId }, 'trace'),
    breakdown_ms: await tool('coral_query_breakdown', { service: SERVICE }, 'breakdown'),
    first_look_ms: await firstLook(),
  };
  const retention = store instanceof ColonyStore ? await retentionStepMs(store) : null;
  const stored = (await store.counts()).spans;
  if (stored !== built.spans) log(`${b} ${n}: ${stored} spans stored, ${built.spans} built`);
  await store.close();
  report({
    bench: 'scale', backend: b, spans: stored, open_ms: ms(Math.max(openRead, openWrite)), ...figures,
    rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), open_read_ms: ms(openRead), open_write_ms: ms(openWrite),
    ...(retention === null ? {} : { retention_step_ms: ms(retention) }), open_read_cpu_ms: ms(openReadCpu), open_write_cpu_ms: ms(openWriteCpu), ...cpu,
  });
}

/**
 * The ingest pause a retention step costs (retention.ts): one step's DELETEs of the oldest rows,
 * P50 of 3, each inside a transaction rolled back so the cached colony is left as built.
 */
async function retentionStepMs(store: ColonyStore): Promise<number> {
  const [{ oldest }] = await store.db.query<{ oldest: bigint }>('SELECT min(start_ns) AS oldest FROM otel_traces');
  const t = await timeRuns(async () => {
    await store.db.admin.run('BEGIN TRANSACTION');
    try {
      await deleteOlderThan(store.db, oldest + 3_600_000_000_000n);
    } finally {
      await store.db.admin.run('ROLLBACK');
    }
  }, 3);
  log(`duckdb: a retention step (<= ${RETENTION_STEP_ROWS} oldest rows per table) P50 ${t.p50.toFixed(1)} ms (max ${t.max.toFixed(1)})`);
  return t.p50;
}

/** Runs this file again as a child for one step; its stdout (a JSON line when measuring) returned. */
function child(step: 'build' | 'settle' | 'measure', b: Backend, n: number): string | null {
  const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, step, b, String(n)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) {
    log(`${b} ${n}: ${step} failed (exit ${r.status ?? r.signal})`);
    return null;
  }
  return r.stdout;
}

const FIGURES = ['open_ms', 'open_read_ms', 'open_write_ms', 'open_read_cpu_ms', 'open_write_cpu_ms', 'summary_ms', 'traces_ms', 'metrics_ms', 'trace_ms', 'breakdown_ms', 'first_look_ms', 'rss_mb', 'retention_step_ms', 'summary_cpu_ms', 'traces_cpu_ms', 'metrics_cpu_ms', 'trace_cpu_ms', 'breakdown_cpu_ms', 'first_look_cpu_ms'] as const;

/** Each figure per size, one row per backend and figure, and the largest size's against the smallest. */
function curve(lines: Record<string, number | string>[]): string {
  const out: string[] = ['', 'scale curve (P50 ms; rss MB): per size, then largest / smallest'];
  for (const b of ['duckdb', 'clickhouse']) {
    const rows = lines.filter((l) => l.backend === b).sort((x, y) => Number(x.spans) - Number(y.spans));
    if (rows.length === 0) continue;
    out.push(`${b.padEnd(12)}${'spans'.padEnd(18)}${rows.map((r) => String(r.spans).padStart(11)).join('')}       x`);
    for (const f of FIGURES) {
      if (rows.every((r) => r[f] === undefined)) continue;
      const v = rows.map((r) => Number(r[f]));
      const growth = v.length > 1 && v[0] > 0 ? (v[v.length - 1] / v[0]).toFixed(2) : '-';
      out.push(`${''.padEnd(12)}${f.padEnd(18)}${v.map((x) => String(x).padStart(11)).join('')}${growth.padStart(8)}`);
    }
  }
  return out.join('\n');
}

const [step, backendArg, sizeArg] = process.argv.slice(2);
if (step === 'build' || step === 'settle' || step === 'measure') {
  const b = backendArg as Backend;
  await { build, settle, measure }[step](b, Number(sizeArg));
} else {
  const sizes = (process.env.BENCH_SCALE_SPANS ?? '1000000,3000000,10000000').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const wanted = (process.env.BENCH_SCALE_BACKENDS ?? 'duckdb,clickhouse').split(',') as Backend[];
  const backends = wanted.filter((b) => b === 'duckdb' || HAVE_CHDB);
  if (backends.length < wanted.length) log(`chdb is not installed under ${process.env.CORAL_CHDB_PATH}: ClickHouse skipped (npm install --no-save --prefix .cache/chdb chdb@3.4.0)`);
  const lines: Record<string, number | string>[] = [];
  let failed = false;
  for (const n of sizes) {
    for (const b of backends) {
      if (process.env.BENCH_SCALE_REBUILD === '1' || !existsSync(doneMark(b, n))) {
        if (child('build', b, n) === null) {
          failed = true;
          continue;
        }
      } else log(`${b} ${n}: reusing the colony built before (BENCH_SCALE_REBUILD=1 builds it again)`);
      const out = b === 'clickhouse' && child('settle', b, n) === null ? null : child('measure', b, n);
      if (out === null) {
        failed = true;
        continue;
      }
      process.stdout.write(out);
      for (const line of out.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, number | string>);
    }
  }
  process.stderr.write(`${curve(lines)}\n`);
  process.exit(failed ? 1 : 0);
}

