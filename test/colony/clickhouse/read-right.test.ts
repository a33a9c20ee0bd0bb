import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer } from './parity.js';
import { cliTable, expectSameAnswers, withBothBackends, withDuckDB } from './both.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { MIN, T0 } from '../../support/otlp-json.js';
import { eventLogsExport, routelessHttpExport, sdkHistogramExport } from '../../support/real-shapes.js';

const DIR = join(tmpdir(), `coral-ch-readright-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const NOW = T0 + 2n * MIN;

async function load(store: Colony): Promise<void> {
  await ingestExport(store, 'traces', 'json', Buffer.from(JSON.stringify(routelessHttpExport())));
  await ingestExport(store, 'metrics', 'json', Buffer.from(JSON.stringify(sdkHistogramExport())));
  await ingestExport(store, 'logs', 'json', Buffer.from(JSON.stringify(eventLogsExport())));
}

async function check(store: Colony): Promise<void> {
  const ops = [...new Set((await store.operationSpanBuckets({ fromNs: T0 - MIN, toNs: NOW })).map((r) => r.operation))].sort();
  expect(ops).toEqual(['GET', 'GET /api/cart', 'POST']);
  const hist = (await store.operationHistograms({ fromNs: T0 - MIN, toNs: NOW })).map((r) => r.operation);
  expect(hist).toEqual(['POST']);
  const m = await answer(store, NOW, 'coral_query_telemetry_metrics', { service: 'ad' });
  expect(m.text).toContain('http.server.request.duration (histogram, s): 1 series, 2 points, latest points: count 8, sum 0.05, avg 0.00625, min 0.001, max 0.02');
  expect((m.structured as { metrics: unknown[] }).metrics[0]).toMatchObject({ count: 8, sum: 0.05, min: 0.001, max: 0.02, last: null });
  const logs = await answer(store, NOW, 'coral_query_telemetry_logs', { service: 'frontend' });
  expect(logs.text).toMatch(/frontend INFO \[event feature_flag\.evaluation\]: ""/);
  expect(logs.text).toMatch(/frontend INFO: "GET \/api\/products 200"/);
  expect((logs.structured as { logs: { eventName: string }[] }).logs.map((l) => l.eventName)).toEqual(['', 'feature_flag.evaluation']);
  expect(await cliTable(store, NOW, 'coral_query_telemetry_logs', { service: 'frontend' })).toMatch(/│ event\s+│[\s\S]*feature_flag\.evaluation/);
  expect(await cliTable(store, NOW, 'coral_query_telemetry_metrics', { service: 'ad' })).toMatch(/│ count │ sum\s+│[\s\S]*│ 8\s+│ 0\.05/);
}

describe('names and numbers that read right', () => {
  it('DuckDB: operations without a route or named by the method, histogram count/sum/min/max', () => withDuckDB(load, check));

  it.skipIf(!HAVE_CHDB)(`ClickHouse answers the same${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => withBothBackends(DIR, 'readright', load, async (duck, ch) => {
    await check(ch);
    await expectSameAnswers(duck, ch, NOW, [['coral_query_telemetry_metrics', { service: 'ad' }], ['coral_query_metrics', { service: 'frontend-proxy' }], ['coral_query_telemetry_logs', { service: 'frontend' }]]);
  }), 120_000);
});
