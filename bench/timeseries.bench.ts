/**
 * coral_query_timeseries at scale (issue 40): a 1 h window of 120 points (step 30s) on colonies of
 * BENCH_TIMESERIES_SPANS spans (default 1M; targets: a series <= 100 ms at 1M and <= 500 ms at 10M,
 * a latency heatmap <= 200 ms at 1M; ClickHouse within 2x of DuckDB). The colonies are the scale
 * bench's (scale-colony.ts: the largest demo hour repeated an hour earlier per copy, the newest hour
 * the same at every size), built by `scale.bench.ts build` when not cached (BENCH_SCALE_DIR, default
 * /tmp: coral-scale-N.duckdb, coral-scale-N-chdb/), then measured in a process per size and backend
 * (DuckDB never shares a process with chdb: see clickhouse.bench.ts). P50 of BENCH_TIMESERIES_RUNS
 * (default 7) with its CPU P50, one JSON line per size, call and backend, then one per size and call
 * comparing the backends.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Colony } from '../src/colony/store/colony.js';
import { ColonyStore } from '../src/colony/store/store.js';
import { ClickHouseStore } from '../src/colony/store/clickhouse/store.js';
import { timeseriesTool } from '../src/colony/tools/timeseries.js';
import { runTool } from '../src/colony/tools/run.js';
import { createToolContext } from '../src/colony/tools/types.js';
import { SCALE_END } from './scale-colony.js';
import { report, timeRuns } from './report.js';
import { type Backend, HAVE_CHDB, chDir, doneMark, duckPath, log } from './scale-files.js';

const RUNS = Number(process.env.BENCH_TIMESERIES_RUNS ?? 7);

const WINDOW = { time_range: '1h', step: '30s' };
/** The calls measured, each with its target at 1M and at 10M spans. */
const CALLS: { name: string; args: Record<string, unknown>; target1M: number; target10M: number }[] = [
  { name: 'requests', args: { service: 'checkout', signal: 'requests', ...WINDOW }, target1M: 100, target10M: 500 },
  { name: 'errors', args: { service: 'checkout', signal: 'errors', ...WINDOW }, target1M: 100, target10M: 500 },
  { name: 'p95', args: { service: 'checkout', signal: 'p95', ...WINDOW }, target1M: 100, target10M: 500 },
  { name: 'p95_by_pod', args: { service: 'checkout', signal: 'p95', group_by: 'k8s.pod.name', ...WINDOW }, target1M: 100, target10M: 500 },
  { name: 'requests_every_service', args: { signal: 'requests', group_by: 'service.name', ...WINDOW }, target1M: 100, target10M: 500 },
  { name: 'metric', args: { signal: 'metric', metric: 'process.memory.usage', group_by: 'service.name', ...WINDOW }, target1M: 100, target10M: 500 },
  { name: 'heatmap', args: { service: 'checkout', signal: 'latency_heatmap', ...WINDOW }, target1M: 200, target10M: 1000 },
];

interface Measured {
  name: string;
  p50: number;
  max: number;
  cpuP50: number;
  points: number;
  text: string;
}

async function measure(b: Backend, n: number): Promise<void> {
  const store: Colony = b === 'duckdb'
    ? await ColonyStore.open({ path: duckPath(n), readOnly: true })
    : await ClickHouseStore.open({ target: { kind: 'chdb', dir: chDir(n), database: 'scale' } });
  const ctx = createToolContext(store, () => SCALE_END);
  const out: Measured[] = [];
  try {
    for (const c of CALLS) {
      let text = '';
      let points = 0;
      const t = await timeRuns(async () => {
        const r = await runTool(timeseriesTool, ctx, c.args);
        text = r.text;
        points = (r.structured.step as { count: number }).count;
      }, RUNS);
      log(`${b} ${n}: ${c.name} P50 ${t.p50.toFixed(1)} ms (max ${t.max.toFixed(1)}, CPU P50 ${t.cpuP50.toFixed(1)} ms), ${points} points`);
      out.push({ name: c.name, ...t, points, text });
    }
  } finally {
    await store.close();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function child(step: string, b: Backend, n: number, script: string): string | null {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, step, b, String(n)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    log(`${b} ${n}: ${step} failed (exit ${r.status ?? r.signal})`);
    return null;
  }
  return r.stdout;
}

const [step, backendArg, sizeArg] = process.argv.slice(2);
if (step === 'measure') {
  await measure(backendArg as Backend, Number(sizeArg));
} else {
  const sizes = (process.env.BENCH_TIMESERIES_SPANS ?? '1000000').split(',').map(Number).filter((x) => Number.isInteger(x) && x > 0);
  const backends: Backend[] = HAVE_CHDB ? ['duckdb', 'clickhouse'] : ['duckdb'];
  if (!HAVE_CHDB) log(`chdb is not installed under ${process.env.CORAL_CHDB_PATH}: ClickHouse skipped (npm run chdb)`);
  const scale = join(import.meta.dirname, 'scale.bench.ts');
  let failed = false;
  const ms = (x: number) => Number(x.toFixed(1));
  for (const n of sizes) {
    const got = new Map<Backend, Measured[]>();
    for (const b of backends) {
      if (!existsSync(doneMark(b, n))) {
        log(`${b} ${n}: building the scale colony (scale.bench.ts build)`);
        if (child('build', b, n, scale) === null || (b === 'clickhouse' && child('settle', b, n, scale) === null)) {
          failed = true;
          continue;
        }
      } else log(`${b} ${n}: reusing the scale colony built before`);
      const outText = child('measure', b, n, import.meta.filename);
      if (outText === null) {
        failed = true;
        continue;
      }
      got.set(b, JSON.parse(outText.trim().split('\n').at(-1) ?? '[]') as Measured[]);
    }
    const duck = got.get('duckdb') ?? [];
    const ch = got.get('clickhouse') ?? [];
    for (const c of CALLS) {
      const target = n <= 1_000_000 ? c.target1M : n >= 10_000_000 ? c.target10M : c.target10M;
      const a = duck.find((x) => x.name === c.name);
      const b = ch.find((x) => x.name === c.name);
      report({
        bench: 'timeseries', call: c.name, args: c.args, spans: n, points: a?.points ?? b?.points ?? null, target_ms: target,
        ...(a ? { duckdb_p50_ms: ms(a.p50), duckdb_max_ms: ms(a.max), duckdb_cpu_p50_ms: ms(a.cpuP50), duckdb_meets_target: a.p50 <= target } : {}),
        ...(b ? { clickhouse_p50_ms: ms(b.p50), clickhouse_max_ms: ms(b.max), clickhouse_cpu_p50_ms: ms(b.cpuP50), clickhouse_meets_target: b.p50 <= target } : {}),
        ...(a && b ? { ratio: Number((b.p50 / a.p50).toFixed(2)), cpu_ratio: Number((b.cpuP50 / a.cpuP50).toFixed(2)), within_2x: b.p50 <= 2 * a.p50, same_text: a.text === b.text } : {}),
      });
    }
  }
  process.exit(failed ? 1 : 0);
}
