import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer, firstDifference } from './parity.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { emptyBatch } from '../../../src/colony/store/rows.js';
import { BREAKDOWN_KEYS, type BreakdownQuery } from '../../../src/colony/store/queries/breakdown.js';
import { loadScenario } from '../../../src/demo/load.js';
import { BEFORE, NOW, WINDOW, breakdownSpans, variedSpans } from '../breakdown/fixture.js';

/**
 * The breakdown's read and tool on both backends: the same rows (ClickHouse with coral's stored
 * columns and with everything computed at read time), the same answers on a demo scenario.
 */
const DIR = join(tmpdir(), `coral-ch-breakdown-${process.pid}`);
const SCENARIO_END = 1_764_675_000_000_000_000n;

let duck: ColonyStore;
let ch: ClickHouseStore;
let plain: ClickHouseStore;
beforeAll(async () => {
  if (!HAVE_CHDB) return;
  duck = await ColonyStore.open({ path: ':memory:' });
  ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'breakdown' }, create: true });
  plain = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'breakdown_plain' }, create: true, materialize: false });
  const batch = emptyBatch();
  batch.spans.push(...breakdownSpans(), ...variedSpans());
  await Promise.all([duck.write(batch), ch.write(batch), plain.write(batch)]);
}, 120_000);
afterAll(async () => {
  await duck?.close();
  await ch?.close();
  await plain?.close();
  rmSync(DIR, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!HAVE_CHDB)(`the breakdown on DuckDB and ClickHouse${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, { timeout: 300_000 }, () => {
  it('reads the same rows: every key, older attribute names, operations of any kind, the window before', async () => {
    const queries: BreakdownQuery[] = [
      { service: 'api', range: WINDOW },
      { service: 'api', range: WINDOW, baseline: BEFORE },
      { service: 'api', range: WINDOW, operation: 'SELECT orders' },
      { service: 'api', range: WINDOW, operation: 'orders process' },
      { service: 'api', range: WINDOW, operation: '/cart/{id}', keys: ['k8s.pod.name', 'http.route'] },
      { service: 'api', range: WINDOW, keys: ['k8s.pod.name', 'service.instance.id'] },
      { service: 'api', range: WINDOW, keys: [] },
      { service: 'nobody', range: WINDOW },
    ];
    const seen = new Set<string>();
    for (const [i, q] of queries.entries()) {
      const want = await duck.breakdownRows(q);
      expect(firstDifference(await ch.breakdownRows(q), want), `query ${i}`).toBeNull();
      expect(firstDifference(await plain.breakdownRows(q), want), `query ${i}, computed at read time`).toBeNull();
      for (const r of want) seen.add(`${r.key}=${r.value}`);
    }
    // Not empty answers alike: each older name was read under the current key.
    expect([...seen]).toEqual(expect.arrayContaining([
      'db.namespace=shop', 'server.address=pg-1', 'server.address=pg-2', 'user_agent.original=pgx', 'messaging.destination.name=orders',
      'messaging.destination.name=payments', 'peer.service=kafka', 'deployment.environment.name=prod', 'cloud.availability_zone=eu-west-1b',
      'db.system.name=postgresql', 'http.request.method=POST', 'http.response.status_code=500', 'k8s.pod.name=api-7f9c',
    ]));
    const keysSeen = new Set([...seen].map((s) => s.split('=')[0]));
    expect(BREAKDOWN_KEYS.map((k) => k.key).filter((k) => !keysSeen.has(k))).toEqual(['k8s.deployment.name', 'rpc.method', 'rpc.grpc.status_code']);
  });

  it('answers alike, text and structured, on the fixture', async () => {
    // (the demo scenario below has the gRPC keys and k8s.deployment.name)
    for (const args of [{ compare: 'slow' }, {}, { compare: 'window' }, { compare: 'slow', threshold_ms: 100 }, { operation: 'SELECT orders' }]) {
      const call = { service: 'api', time_range: '10m', ...args };
      const [a, b] = await Promise.all([answer(duck, NOW, 'coral_query_breakdown', call), answer(ch, NOW, 'coral_query_breakdown', call)]);
      expect(b.text, JSON.stringify(call)).toBe(a.text);
      expect(firstDifference(a.structured, b.structured)).toBeNull();
      expect(a.isError).toBe(false);
    }
  });

  it('answers alike on a demo scenario, for a culprit with both sources, an eBPF-only and an SDK-only service', async () => {
    const scenarioDuck = await ColonyStore.open({ path: ':memory:' });
    const scenarioCh = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'breakdown_demo' }, create: true });
    try {
      await loadScenario({ write: (b) => Promise.all([scenarioDuck.write(b), scenarioCh.write(b)]).then(() => undefined) }, 'payment-failure', { endAtNs: SCENARIO_END });
      let ranked = 0;
      for (const service of ['payment', 'currency', 'recommendation', 'checkout']) {
        for (const compare of ['auto', 'slow', 'window']) {
          const call = { service, compare };
          const [a, b] = await Promise.all([answer(scenarioDuck, SCENARIO_END, 'coral_query_breakdown', call), answer(scenarioCh, SCENARIO_END, 'coral_query_breakdown', call)]);
          expect(b.text, JSON.stringify(call)).toBe(a.text);
          expect(firstDifference(a.structured, b.structured), JSON.stringify(call)).toBeNull();
          ranked += ((a.structured as { keys: unknown[] }).keys ?? []).length;
        }
      }
      expect(ranked).toBeGreaterThan(0);
    } finally {
      await scenarioDuck.close();
      await scenarioCh.close();
    }
  });
});
