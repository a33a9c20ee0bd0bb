/**
 * coral_query_breakdown: P50 on the largest demo scenario (target <= 300 ms) and on a colony where one
 * service holds every one of BENCH_BREAKDOWN_SPANS spans (default 1,000,000; target <= 1.5 s), each
 * comparison, in DuckDB (':memory:' compacted, as the console opens a demo) and embedded ClickHouse
 * (chdb); ClickHouse within 2x of DuckDB. DuckDB is measured first, before chdb is loaded into the
 * process (see clickhouse.bench.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Colony, ColonyWriter } from '../src/colony/store/colony.js';
import { ColonyStore } from '../src/colony/store/store.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_THREADS } from '../src/colony/store/db.js';
import { ClickHouseStore } from '../src/colony/store/clickhouse/store.js';
import type { IngestBatch } from '../src/colony/store/rows.js';
import { loadScenario } from '../src/demo/load.js';
import { listScenarios } from '../src/demo/files.js';
import { breakdownTool } from '../src/colony/tools/breakdown.js';
import { runTool } from '../src/colony/tools/run.js';
import { createToolContext } from '../src/colony/tools/types.js';
import type { Nanos } from '../src/core/time.js';
import { END, populate } from './synthetic.js';
import { report, timeRuns } from './report.js';

const RUNS = Number(process.env.BENCH_BREAKDOWN_RUNS ?? 7);
const SPANS = Number(process.env.BENCH_BREAKDOWN_SPANS ?? 1_000_000);
process.env.CORAL_CHDB_PATH ??= resolve(import.meta.dirname, '../.cache/chdb/node_modules');
const HAVE_CHDB = existsSync(join(process.env.CORAL_CHDB_PATH, 'chdb'));
const dir = mkdtempSync(join(tmpdir(), 'coral-breakdown-bench-'));

const all = (stores: ColonyWriter[]) => ({ write: (batch: IngestBatch) => Promise.all(stores.map((s) => s.write(batch))).then(() => undefined) });

interface Dataset {
  label: string;
  spans: number;
  now: () => Nanos;
  load: (w: ColonyWriter[]) => Promise<void>;
  calls: Record<string, unknown>[];
  targetMs: number;
}

type Timing = Awaited<ReturnType<typeof timeRuns>> & { text: string };

async function timeCalls(store: Colony, d: Dataset): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const args of d.calls) {
    let text = '';
    const t = await timeRuns(async () => (text = (await runTool(breakdownTool, createToolContext(store, d.now), args)).text), RUNS);
    out.push({ ...t, text });
  }
  return out;
}

const ms = (x: number) => Number(x.toFixed(1));

const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
const demoEnd = END + 3_600_000_000_000n;
const datasets: Dataset[] = [
  {
    label: 'demo', spans: largest.counts.spans, now: () => demoEnd, targetMs: 300,
    load: (w) => loadScenario(all(w), largest.name, { endAtNs: demoEnd }).then(() => undefined),
    calls: [{ service: 'checkout' }, { service: 'checkout', compare: 'slow' }, { service: 'checkout', compare: 'window' }, { service: 'frontend', compare: 'slow' }],
  },
  {
    // One service with every span, five pods (the first slower), over the day: the breakdown reads them all.
    label: 'synthetic', spans: SPANS, now: () => END, targetMs: 1500,
    load: (w) => populate(all(w), SPANS, 0, { services: 1, pods: 5 }),
    calls: [{ service: 'svc-0', time_range: '24h' }, { service: 'svc-0', time_range: '24h', compare: 'slow' }, { service: 'svc-0', time_range: '12h', compare: 'window' }],
  },
];

try {
  const duck: Timing[][] = [];
  for (const d of datasets) {
    const store = await ColonyStore.open({ path: ':memory:', threads: DEFAULT_THREADS, memoryLimit: d.label === 'demo' ? DEFAULT_MEMORY_LIMIT : '8GB', compact: true });
    await d.load([store]);
    await store.compact();
    duck.push(await timeCalls(store, d));
    await store.close();
  }
  const ch: (Timing[] | null)[] = [];
  for (const d of datasets) {
    if (!HAVE_CHDB) {
      ch.push(null);
      continue;
    }
    const store = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database: `breakdown_${d.label}` }, create: true });
    await d.load([store]);
    ch.push(await timeCalls(store, d));
    await store.close();
  }
  datasets.forEach((d, i) => d.calls.forEach((args, j) => {
    const a = duck[i][j];
    const b = ch[i]?.[j];
    report({
      bench: `breakdown_${d.label}`, args, spans: d.spans, target_ms: d.targetMs,
      duckdb_p50_ms: ms(a.p50), duckdb_cpu_p50_ms: ms(a.cpuP50), duckdb_meets_target: a.p50 <= d.targetMs,
      ...(b ? {
        clickhouse_p50_ms: ms(b.p50), clickhouse_cpu_p50_ms: ms(b.cpuP50), clickhouse_meets_target: b.p50 <= d.targetMs,
        ratio: Number((b.p50 / a.p50).toFixed(2)), within_2x: Math.max(a.p50, b.p50) <= 2 * Math.min(a.p50, b.p50), same_text: a.text === b.text,
      } : { clickhouse: 'chdb not installed (npm install --no-save --prefix .cache/chdb chdb@3.4.0)' }),
    });
  }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
