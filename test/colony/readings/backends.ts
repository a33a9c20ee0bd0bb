import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HAVE_CHDB } from '../clickhouse/chdb.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { decodeExport } from '../../../src/colony/otlp/ingest.js';
import { toolByName } from '../../../src/colony/tools/index.js';
import { runTool } from '../../../src/colony/tools/run.js';
import { createToolContext } from '../../../src/colony/tools/types.js';
import type { Nanos } from '../../../src/core/time.js';

/**
 * The readings tests run each fixture through the receiver's decode path into both backends: DuckDB
 * always, embedded ClickHouse (chdb) when it is installed.
 */
export const FIXTURES = resolve(import.meta.dirname, '../fixtures');
const DIR = join(tmpdir(), `coral-readings-${process.pid}`);
let databases = 0;

export interface Backend {
  name: 'duckdb' | 'chdb';
  open(): Promise<Colony>;
}

export const BACKENDS: Backend[] = [
  { name: 'duckdb', open: () => ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' }) },
  ...(HAVE_CHDB ? [{ name: 'chdb' as const, open: () => ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: `readings_${process.pid}_${++databases}` }, create: true }) }] : []),
];

export const removeChdbDir = () => rmSync(DIR, { recursive: true, force: true });

/** Every export of a fixture (JSON Lines, one OTLP/JSON export request a line, as the collector's file exporter writes) into the store. */
export async function ingestFixture(store: Colony, signal: 'traces' | 'metrics' | 'logs', file: string): Promise<void> {
  for (const line of readFileSync(join(FIXTURES, file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const n = decodeExport(signal, 'json', Buffer.from(line));
    if (n.rejected > 0) throw new Error(`${file}: ${n.rejected} rejected`);
    await store.write(n.batch);
  }
}

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

export async function ask(store: Colony, now: Nanos, tool: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const def = toolByName(tool);
  if (!def) throw new Error(`no tool ${tool}`);
  const r = await runTool(def, createToolContext(store, () => now), args);
  return { text: r.text, structured: r.structured as Record<string, unknown> };
}
