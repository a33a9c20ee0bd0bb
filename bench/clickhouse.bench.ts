/**
 * The colony on ClickHouse beside DuckDB, in the same run: porcelain tool P50 on the largest demo
 * scenario and on a synthetic colony (BENCH_CH_SPANS spans, default 1,000,000), in embedded
 * ClickHouse (chdb, from .cache/chdb or CORAL_CHDB_PATH) and in DuckDB. Target: ClickHouse within 2x.
 *
 * DuckDB is measured in the three configurations users get, each fed the same data (one line per
 * configuration and tool, ClickHouse's figure repeated on each, the ratio against that configuration):
 * - `memory`: ':memory:' as opened without `compact` (`coral demo eval`, `--db :memory:`); its rows
 *   stay uncompressed, since its write-ahead threshold (db.ts CHECKPOINT_THRESHOLD) is never reached.
 * - `compact`: ':memory:' with `compact: true`, compressed after the load (ColonyStore.compact()), as
 *   the console and `coral ask --demo` open a demo (agent/setup.ts).
 * - `file`: a colony file written, closed (checkpointed, i.e. compressed) and reopened, as
 *   `coral colony serve` leaves it and `coral ask`/`coral query --db FILE` read it.
 * DuckDB runs with coral's default worker threads (DEFAULT_THREADS); chdb with its own defaults
 * (max_threads = cores). No result cache on either side (use_query_cache stays off); ClickHouse's
 * query condition cache, on by default, made no measurable difference to these queries.
 *
 * Each dataset is measured on DuckDB first, before chdb is loaded into the process, then on
 * ClickHouse, since no coral process holds both: in 3 of 3 processes where a chdb session started
 * first, a DuckDB colony ran coral_query_metrics' side-by-side reads on both cores (demo, ~29 ms
 * wall for ~48 ms CPU), in 1 of 9 without chdb (~46-51 ms wall, same CPU; cause not found). Either
 * way DuckDB's wall clock depends on the cores it gets: read the CPU ratio beside the wall one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Colony, ColonyWriter } from '../src/colony/store/colony.js';
import { ColonyStore } from '../src/colony/store/store.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_THREADS } from '../src/colony/store/db.js';
import { ClickHouseStore } from '../src/colony/store/clickhouse/store.js';
import type { IngestBatch } from '../src/colony/store/rows.js';
import { loadScenario } from '../src/demo/load.js';
import { listScenarios } from '../src/demo/files.js';
import { toolByName } from '../src/colony/tools/index.js';
import { runTool } from '../src/colony/tools/run.js';
import { createToolContext } from '../src/colony/tools/types.js';
import type { Nanos } from '../src/core/time.js';
import { END, populate, porcelainCases } from './synthetic.js';
import { report, timeRuns } from './report.js';
import { timeSummaryCalls } from './summary-calls.js';

const RUNS = Number(process.env.BENCH_CH_RUNS ?? 7);
/** BENCH_CH_CALLS=1: also each store call of the summary alone, DuckDB's file configuration beside ClickHouse (summary-calls.ts). */
const CALLS = process.env.BENCH_CH_CALLS === '1';
const SPANS = Number(process.env.BENCH_CH_SPANS ?? 1_000_000);
process.env.CORAL_CHDB_PATH ??= resolve(import.meta.dirname, '../.cache/chdb/node_modules');
if (!existsSync(join(process.env.CORAL_CHDB_PATH, 'chdb'))) {
  console.error(`chdb is not installed under ${process.env.CORAL_CHDB_PATH}: npm install --no-save --prefix .cache/chdb chdb@3.4.0`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'coral-ch-bench-'));

type DuckConfig = 'memory' | 'compact' | 'file';
const CONFIGS: Record<DuckConfig, string> = {
  memory: "':memory:' uncompressed (coral demo eval, --db :memory:)",
  compact: "':memory:' compact, compressed after load (console and coral ask --demo)",
  file: 'colony file written, closed and reopened (coral colony serve, then coral ask/query --db FILE)',
};

/** Every writer fed from one decoding. */
const all = (stores: ColonyWriter[]) => ({ write: (batch: IngestBatch) => Promise.all(stores.map((s) => s.write(batch))).then(() => undefined) });

/** A case's timing and its answer's text (the backends are compared on the same answers). */
type Timing = Awaited<ReturnType<typeof timeRuns>> & { text: string };

/** Times every porcelain case on `store`. */
async function timeCases(store: Colony, now: () => Nanos, service: string): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const [tool, args] of porcelainCases(service)) {
    const def = toolByName(tool);
    if (!def) throw new Error(tool);
    let text = '';
    const t = await timeRuns(async () => (text = (await runTool(def, createToolContext(store, now), args)).text), RUNS);
    out.push({ ...t, text });
  }
  return out;
}

/** The three DuckDB configurations loaded by `load`, each timed, then closed; load1 as they were timed. */
async function timeDuckdbs(name: string, memoryLimit: string, load: (w: ColonyWriter[]) => Promise<void>, now: () => Nanos, service: string) {
  const file = join(dir, `${name}.duckdb`);
  const memory = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit });
  const compact = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit, compact: true });
  const writing = await ColonyStore.open({ path: file, threads: DEFAULT_THREADS, memoryLimit });
  const t = performance.now();
  await load([memory, compact, writing]);
  await compact.compact();
  await writing.close();
  const loadMs = Math.round(performance.now() - t);
  const stores: Record<DuckConfig, ColonyStore> = { memory, compact, file: await ColonyStore.open({ path: file, threads: DEFAULT_THREADS, memoryLimit }) };
  const timings = {} as Record<DuckConfig, Timing[]>;
  for (const config of Object.keys(CONFIGS) as DuckConfig[]) timings[config] = await timeCases(stores[config], now, service);
  const calls = CALLS ? await timeSummaryCalls(stores.file, now(), RUNS) : [];
  const load1 = Number(loadavg()[0].toFixed(1));
  for (const store of Object.values(stores)) await store.close();
  return { timings, calls, loadMs, load1 };
}

/** ClickHouse loaded by `load` and timed, then compared with each DuckDB configuration: one line per tool and configuration. */
async function compare(label: string, database: string, load: (w: ColonyWriter[]) => Promise<void>, duck: Awaited<ReturnType<typeof timeDuckdbs>>, now: () => Nanos, service: string, spans: number): Promise<void> {
  const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database }, create: true });
  const t = performance.now();
  await load([ch]);
  report({ bench: `clickhouse_load_${label}`, spans, duckdb_three_configs_ms: duck.loadMs, clickhouse_ms: Math.round(performance.now() - t) });
  const chTimings = await timeCases(ch, now, service);
  const ms = (x: number) => Number(x.toFixed(1));
  if (CALLS) {
    for (const [i, c] of (await timeSummaryCalls(ch, now(), RUNS)).entries()) {
      const d = duck.calls[i];
      report({ bench: `clickhouse_summary_calls_${label}`, call: c.call, spans, duckdb_file_p50_ms: ms(d.p50), clickhouse_p50_ms: ms(c.p50), duckdb_cpu_p50_ms: ms(d.cpuP50), clickhouse_cpu_p50_ms: ms(c.cpuP50), duckdb_load1: duck.load1 });
    }
  }
  await ch.close();
  porcelainCases(service).forEach(([tool, args], i) => {
    const c = chTimings[i];
    for (const config of Object.keys(CONFIGS) as DuckConfig[]) {
      const d = duck.timings[config][i];
      const ratio = c.p50 / d.p50;
      report({
        bench: `clickhouse_porcelain_${label}`, tool, args, spans, duckdb_config: config,
        duckdb_p50_ms: ms(d.p50), clickhouse_p50_ms: ms(c.p50), duckdb_cpu_p50_ms: ms(d.cpuP50), clickhouse_cpu_p50_ms: ms(c.cpuP50),
        ratio: Number(ratio.toFixed(2)), cpu_ratio: Number((c.cpuP50 / d.cpuP50).toFixed(2)), target_ratio: 2, meets_target: ratio <= 2, duckdb_threads: DEFAULT_THREADS,
        duckdb_load1: duck.load1, same_text: c.text === d.text,
      });
    }
  });
}

try {
  report({ bench: 'clickhouse_duckdb_configs', ...CONFIGS });
  const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
  const end = END + 3_600_000_000_000n;
  const demo = (w: ColonyWriter[]) => loadScenario(all(w), largest.name, { endAtNs: end }).then(() => undefined);
  const demoDuck = await timeDuckdbs('demo', DEFAULT_MEMORY_LIMIT, demo, () => end, 'checkout');
  const synthetic = (w: ColonyWriter[]) => populate(all(w), SPANS, 200_000);
  // Every DuckDB figure before chdb is loaded (see the top).
  const bigDuck = SPANS > 0 ? await timeDuckdbs('synthetic', '8GB', synthetic, () => END, 'svc-3') : null;
  await compare('demo', 'demo', demo, demoDuck, () => end, 'checkout', largest.counts.spans);
  if (bigDuck) await compare('synthetic', 'synthetic', synthetic, bigDuck, () => END, 'svc-3', SPANS);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
