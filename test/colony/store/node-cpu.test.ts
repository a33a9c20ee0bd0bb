import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB } from '../clickhouse/chdb.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { MIN, T0, attrs, ingest, sdkResource } from '../../support/otlp-json.js';

/**
 * CPU per service and node, on both backends: the node from k8s.node.name else host.name, the mean
 * of the window's points, processes that name no node left out, other gauges ignored.
 */
const DIR = join(tmpdir(), `coral-node-cpu-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const WINDOW = { fromNs: T0, toNs: T0 + 10n * MIN };

function cpuBody(resource: Record<string, string>, name: string, values: number[]): Record<string, unknown> {
  return {
    resourceMetrics: [{
      resource: { attributes: attrs(resource) },
      scopeMetrics: [{ scope: { name: 'runtime' }, metrics: [{ name, unit: '1', gauge: { dataPoints: values.map((v, i) => ({ timeUnixNano: (T0 + BigInt(i + 1) * MIN).toString(), asDouble: v })) } }] }],
    }],
  };
}

async function fill(store: Pick<Colony, 'write'>): Promise<void> {
  await ingest(store, 'metrics', cpuBody(sdkResource('cart', { 'k8s.pod.name': 'cart-1', 'k8s.node.name': 'node-a', 'host.name': 'ignored' }), 'process.cpu.utilization', [0.1, 0.3]));
  await ingest(store, 'metrics', cpuBody(sdkResource('cart', { 'k8s.pod.name': 'cart-2', 'k8s.node.name': 'node-b' }), 'process.cpu.utilization', [0.05]));
  await ingest(store, 'metrics', cpuBody(sdkResource('batch', { 'host.name': 'node-a' }), 'container.cpu.utilization', [0.6, 0.8, 0.7]));
  await ingest(store, 'metrics', cpuBody(sdkResource('nowhere'), 'process.cpu.utilization', [0.9]));
  await ingest(store, 'metrics', cpuBody(sdkResource('cart', { 'k8s.node.name': 'node-a' }), 'process.memory.usage', [1e9]));
}

const EXPECTED = [
  { service: 'batch', node: 'node-a', cpu: 0.7, points: 3 },
  { service: 'cart', node: 'node-a', cpu: 0.2, points: 2 },
  { service: 'cart', node: 'node-b', cpu: 0.05, points: 1 },
];

describe('CPU per service and node', () => {
  it('DuckDB', async () => {
    const store = await ColonyStore.open({ path: ':memory:' });
    try {
      await fill(store);
      expect(await store.nodeCpu(WINDOW)).toEqual(EXPECTED);
      expect(await store.nodeCpu({ fromNs: T0 + 20n * MIN, toNs: T0 + 30n * MIN })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!HAVE_CHDB)('ClickHouse: the same answer', async () => {
    const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'node_cpu' }, create: true });
    try {
      await fill(ch);
      expect(await ch.nodeCpu(WINDOW)).toEqual(EXPECTED);
    } finally {
      await ch.close();
    }
  }, 120_000);
});
