/**
 * Colony files crafted to read outside themselves, as an incident bundle from someone else could
 * be: coral's tables are real, then DuckDB itself (not coral) adds what reads a secret file of the
 * test's. `view`: otel_traces replaced by a view whose span names are the secret's text
 * (read_text); `macro`: a macro `any_value` that shadows DuckDB's aggregate in every query (the
 * metric listing's unit, the registry repair at open) and answers the secret.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ColonyStore } from '../../src/colony/store/store.js';
import { nowNs } from '../../src/core/time.js';
import { SEC, hexId, histogramBody, ingest, sdkResource, tracesBody } from './otlp-json.js';

export interface CraftedColonies {
  /** Text only the secret file holds: it must never appear in what coral prints or serves. */
  secret: string;
  /** The colony as coral wrote it. */
  plain: string;
  view: string;
  macro: string;
}

export async function craftColonies(dir: string): Promise<CraftedColonies> {
  const secret = `do-not-read-${process.pid}-${Date.now()}`;
  const secretFile = join(dir, 'secret.txt');
  writeFileSync(secretFile, secret);
  const plain = join(dir, 'plain.duckdb');
  const store = await ColonyStore.open({ path: plain, threads: 1, memoryLimit: '256MB' });
  const start = nowNs() - 60n * SEC;
  await ingest(store, 'traces', tracesBody(sdkResource('checkout'), 'x', [{ traceId: hexId(16, 1), spanId: hexId(8, 1), name: 'GET /cart', startNs: start, durationMs: 12 }]));
  await ingest(store, 'metrics', histogramBody(sdkResource('checkout'), 'x', { name: 'http.server.request.duration', unit: 's' }, [
    { attributes: { 'http.route': '/cart' }, startNs: start - 60n * SEC, timeNs: start, counts: [1, 0], bounds: [0.1] },
  ]));
  await store.close();
  const read = `read_text('${secretFile}')`;
  const view = await alter(plain, join(dir, 'view.duckdb'), [
    'ALTER TABLE otel_traces RENAME TO spans_kept',
    `CREATE VIEW otel_traces AS SELECT spans_kept.* REPLACE (s.content AS name) FROM spans_kept, ${read} s`,
  ]);
  const macro = await alter(plain, join(dir, 'macro.duckdb'), [`CREATE MACRO any_value(x) AS (SELECT content FROM ${read})`]);
  return { secret, plain, view, macro };
}

/** A copy of `from` at `to` with DuckDB's own statements run on it (as anyone could). */
async function alter(from: string, to: string, statements: string[]): Promise<string> {
  copyFileSync(from, to);
  const instance = await DuckDBInstance.create(to);
  const conn = await instance.connect();
  for (const s of statements) await conn.run(s);
  conn.closeSync();
  instance.closeSync();
  return to;
}
