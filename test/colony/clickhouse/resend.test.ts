import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { startFakeClickHouse } from './fake-http.js';
import { openChClient } from '../../../src/colony/store/clickhouse/client.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { DEFAULT_TABLES, createTableStatements } from '../../../src/colony/store/clickhouse/ddl.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { MIN, SEC, T0, hexId, histogramBody, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';

const DIR = join(tmpdir(), `coral-ch-resend-${process.pid}`);

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** One export per signal, as an SDK sends them: spans of two traces, log records, a histogram. */
const EXPORTS = [
  ['traces', tracesBody(sdkResource('checkout'), 'checkout', Array.from({ length: 6 }, (_, i) => ({
    traceId: hexId(16, i % 2), spanId: hexId(8, i), name: 'GET /cart', startNs: T0 + BigInt(i) * SEC, durationMs: 5 + i,
    attributes: { 'http.request.method': 'GET', 'http.route': '/cart', 'http.response.status_code': i === 3 ? 500 : 200 }, status: i === 3 ? 2 as const : 0 as const,
  })))],
  ['logs', logsBody(sdkResource('checkout'), 'checkout', [{ timeNs: T0 + SEC, body: 'cart loaded' }, { timeNs: T0 + 2n * SEC, body: 'cart failed', severityNumber: 17 }])],
  ['metrics', histogramBody(sdkResource('checkout'), 'checkout', { name: 'http.server.request.duration', unit: 's' }, [
    { attributes: { 'http.request.method': 'GET', 'http.route': '/cart' }, startNs: T0, timeNs: T0 + MIN, bounds: [0.01, 0.1], counts: [3, 2, 1] },
  ])],
] as const;

async function sendTwice(store: Colony): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const [signal, body] of EXPORTS) await ingestExport(store, signal, 'json', Buffer.from(JSON.stringify(body)));
  }
}

describe.skipIf(!HAVE_CHDB)(`a re-sent export on ClickHouse${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, { timeout: 120_000 }, () => {
  it('is stored once in tables coral creates, as the DuckDB colony keeps it', async () => {
    const duck = await ColonyStore.open({ path: ':memory:' });
    const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'own' }, create: true });
    try {
      await sendTwice(duck);
      await sendTwice(ch);
      const counts = await duck.counts();
      expect(counts).toMatchObject({ spans: 6, logs: 2, histogramPoints: 1 });
      expect(await ch.counts()).toEqual(counts);
      expect(await ch.redFromSpans({ service: 'checkout', protocol: 'http', range: { fromNs: T0, toNs: T0 + MIN } }))
        .toEqual([expect.objectContaining({ requests: 5, errors: 1 })]);
    } finally {
      await ch.close();
      await duck.close();
    }
  });

  it('is stored once through the HTTP client too: the insert carries its de-duplication token', async () => {
    const engine = await openChClient({ kind: 'chdb', dir: DIR, database: 'default' });
    const server = await startFakeClickHouse(engine, { user: 'writer', password: 'w' });
    try {
      const ch = await ClickHouseStore.open({ target: { kind: 'http', url: server.url, username: 'writer', database: 'own_http' }, password: 'w', create: true });
      try {
        await sendTwice(ch);
        expect(await ch.counts()).toMatchObject({ spans: 6, logs: 2, histogramPoints: 1 });
      } finally {
        await ch.close();
      }
    } finally {
      await server.close();
      await engine.close();
    }
  });

  it('is stored twice in tables the exporter created (plain MergeTree, no insert de-duplication)', async () => {
    const raw = await openChClient({ kind: 'chdb', dir: DIR, database: 'collector' });
    try {
      for (const sql of createTableStatements('collector', DEFAULT_TABLES)) await raw.command(sql);
    } finally {
      await raw.close();
    }
    const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'collector' }, create: true });
    try {
      await sendTwice(ch);
      expect(await ch.counts()).toMatchObject({ spans: 12, logs: 4, histogramPoints: 2 });
      // A trace read keeps one copy of each span all the same.
      expect(await ch.getTrace(hexId(16, 0))).toHaveLength(3);
    } finally {
      await ch.close();
    }
  });
});
