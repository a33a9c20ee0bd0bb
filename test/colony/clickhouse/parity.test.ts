import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer, firstDifference, toolCalls } from './parity.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import type { TimeRange } from '../../../src/core/time.js';
import { loadScenario } from '../../../src/demo/load.js';
import { SCENARIOS } from '../../../src/demo/scenarios.js';

/**
 * Same scenario, both backends, every porcelain and plumbing tool: the same text and the same
 * structured result (float rounding aside; attribute values as strings, the exporter's maps being
 * untyped). Two scenarios keep the run near two minutes on a two-core machine; PARITY_SCENARIOS=all runs every one.
 */
const DIR = join(tmpdir(), `coral-ch-parity-${process.pid}`);
const END = 1_764_675_000_000_000_000n;
const CHOSEN = process.env.PARITY_SCENARIOS === 'all' ? SCENARIOS.map((s) => s.name) : ['payment-failure', 'kafka-queue-problems'];
/** The services asked about by name: a culprit with both sources, an eBPF-only service and an SDK-only one. */
const SERVICES = ['payment', 'currency', 'recommendation'];

// Every scenario's tables leave ~28,000 files: removing them took 40-63 s on a busy 2-core machine (one or four chdb connections alike).
afterAll(() => rmSync(DIR, { recursive: true, force: true }), 300_000);

describe.skipIf(!HAVE_CHDB)(`DuckDB and ClickHouse colonies answer alike${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  for (const scenario of CHOSEN) {
    it(`${scenario}: every tool, same text and structured result`, async () => {
      const duck = await ColonyStore.open({ path: ':memory:' });
      const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: `parity_${scenario.replace(/-/g, '_')}` }, create: true });
      try {
        // Decoded once, written to both.
        await loadScenario({ write: (b: IngestBatch) => Promise.all([duck.write(b), ch.write(b)]).then(() => undefined) }, scenario, { endAtNs: END });
        expect(await ch.counts()).toEqual(await duck.counts());
        const mismatches: string[] = [];
        const traceIds = new Set<string>();
        for (const { tool, args } of toolCalls(SERVICES)) {
          const [a, b] = await Promise.all([answer(duck, END, tool, args), answer(ch, END, tool, args)]);
          const where = `${tool} ${JSON.stringify(args)}`;
          if (a.text !== b.text) mismatches.push(`${where}: text differs\n--- duckdb\n${a.text.slice(0, 800)}\n--- clickhouse\n${b.text.slice(0, 800)}`);
          const d = firstDifference(a.structured, b.structured);
          if (d) mismatches.push(`${where}: structured differs at ${d}`);
          for (const t of ((a.structured as { traces?: { traceId: string }[] } | null)?.traces ?? []).slice(0, 2)) traceIds.add(t.traceId);
        }
        expect(traceIds.size).toBeGreaterThan(0);
        for (const trace_id of traceIds) {
          const [a, b] = await Promise.all([answer(duck, END, 'coral_get_trace_by_id', { trace_id }), answer(ch, END, 'coral_get_trace_by_id', { trace_id })]);
          if (a.text !== b.text || firstDifference(a.structured, b.structured)) mismatches.push(`coral_get_trace_by_id ${trace_id}: differs`);
        }
        // The summary's reads, asked for several windows at once (one query per read on ClickHouse), against DuckDB's for each window.
        const M = 60_000_000_000n;
        const windows = [[30n, 0n], [60n, 30n], [10n, 5n], [45n, 15n], [30n, 0n]].map(([from, to]) => ({ fromNs: END - from * M, toNs: END - to * M }));
        // Histogram operations come in no particular order on either backend (the summary orders what it shows).
        const inOrder = <T>(rows: T[]) => rows.map((r) => [JSON.stringify(r), r] as const).sort(([x], [y]) => x.localeCompare(y)).map(([, r]) => r);
        const reads: [string, (store: Colony, r: TimeRange) => Promise<unknown>][] = [
          ['topology', (store, r) => store.topology(r)],
          ['messagingDelays', (store, r) => store.messagingDelays(r)],
          ['callSpans', (store, r) => store.callSpans(r, 50)],
          ['operationSpanBuckets', (store, r) => store.operationSpanBuckets(r)],
          ['operationHistograms', async (store, r) => inOrder(await store.operationHistograms(r))],
          ['operationSpanP95', async (store, r) => inOrder(await store.operationSpanP95(r))],
        ];
        for (const [name, read] of reads) {
          const want: unknown[] = [];
          for (const r of windows) want.push(await read(duck, r));
          if ((want as unknown[][]).every((w) => w.length === 0)) mismatches.push(`${name}: no rows in any window, nothing compared`);
          const d = firstDifference(await Promise.all(windows.map((r) => read(ch, r))), want);
          if (d) mismatches.push(`${name} over several windows at once: differs at ${d}`);
        }
        expect(mismatches).toEqual([]);
      } finally {
        await duck.close();
        await ch.close();
      }
    }, 600_000);
  }
});
