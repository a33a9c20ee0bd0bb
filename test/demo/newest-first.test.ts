import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolHub } from '../../src/agent/toolhub.js';
import { createColonyServer } from '../../src/colony/server.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { createToolContext } from '../../src/colony/tools/types.js';
import { exportLinesNewestFirst, streamExportLines } from '../../src/demo/export-lines.js';
import { readMeta, scenariosDir } from '../../src/demo/files.js';
import { loadScenario } from '../../src/demo/load.js';

/**
 * The console loads a demo newest first, so that its first look is answered within a second, into a
 * compressed in-memory colony: it must end up answering every question exactly as a plain colony
 * loaded in send order.
 */
const END = 1_764_676_800_000_000_000n; // 2025-12-02T12:00:00Z
const SCENARIO = 'payment-failure';

async function colony(newestFirst: boolean) {
  const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB', compact: newestFirst });
  const progress: number[] = [];
  await loadScenario(store, SCENARIO, { endAtNs: END, newestFirst, onProgress: (p) => progress.push(p.rows) });
  // As the console does once the hour is in.
  if (newestFirst) await store.compact();
  const hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer(createToolContext(store, () => END)) }]);
  return { store, hub, progress };
}

let inOrder: Awaited<ReturnType<typeof colony>>;
let newest: Awaited<ReturnType<typeof colony>>;
beforeAll(async () => {
  inOrder = await colony(false);
  newest = await colony(true);
}, 600_000);
afterAll(async () => {
  for (const c of [inOrder, newest]) {
    await c?.hub.close();
    await c?.store.close();
  }
});

describe('a demo loaded newest first', () => {
  it('reads every export, newest first', async () => {
    const sent: number[] = [];
    for await (const l of streamExportLines(SCENARIO, scenariosDir())) sent.push(l.offsetMs);
    const got: number[] = [];
    for await (const l of exportLinesNewestFirst(SCENARIO, scenariosDir())) got.push(l.offsetMs);
    expect(got).toHaveLength(readMeta(SCENARIO).counts.exports);
    expect(got).toEqual([...sent].sort((a, b) => b - a));
  });

  it('writes a small first batch, so the newest minutes can be queried early', () => {
    expect(newest.progress[0]).toBeLessThan(inOrder.progress[0] / 3);
  });

  it('holds the tables in a fraction of the memory once compacted', async () => {
    const tableMb = async (c: typeof newest) => {
      const [row] = await c.store.db.query<{ mb: number }>(`SELECT memory_usage_bytes / 1048576 AS mb FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'`);
      return Number(row.mb);
    };
    // Without a key index a plain demo hour is ~8.5 MB of table memory; compressed, ~5 MB.
    const plain = await tableMb(inOrder);
    expect(plain).toBeGreaterThan(5);
    expect(await tableMb(newest)).toBeLessThan(plain * 0.75);
  });

  it('answers the tools exactly as a plain load in send order', async () => {
    const culprit = readMeta(SCENARIO).truth.culprits[0];
    const calls: [string, Record<string, unknown>][] = [
      ['coral_query_traces', { service: culprit, max_traces: 5, time_range: '30m' }],
      ['coral_query_traces', { max_traces: 10, time_range: '1h', min_duration_ms: 200 }],
      ['coral_get_service_health', { time_range: '1h' }],
      ['coral_query_summary', { time_range: '30m' }],
      ['coral_get_service_topology', { time_range: '1h' }],
      ['coral_query_telemetry_logs', { service: culprit, time_range: '1h' }],
    ];
    expect(await newest.store.counts()).toEqual(await inOrder.store.counts());
    for (const [tool, args] of calls) {
      const a = await inOrder.hub.call('a', tool, args, { timeoutMs: 60_000 });
      const b = await newest.hub.call('a', tool, args, { timeoutMs: 60_000 });
      expect(a.ok, `${tool}: ${a.text}`).toBe(true);
      expect(b, tool).toEqual(a);
    }
  }, 120_000);
});
