/**
 * A colony file is data from outside: opening one reads nothing beyond it, and a file whose
 * catalog is not what coral wrote (views, macros, other columns) is refused with what was found.
 * The store opens as `coral ask` and the console open it (agent/setup.ts: readOnly), and as a writer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { type CatalogFacts, judgeCatalog } from '../../../src/colony/store/file-check.js';
import { COLONY_TABLES } from '../../../src/colony/store/schema.js';
import { type CraftedColonies, craftColonies } from '../../support/crafted-colony.js';

const dir = mkdtempSync(join(tmpdir(), 'coral-colony-file-'));
let files: CraftedColonies;
beforeAll(async () => {
  files = await craftColonies(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = (path: string, readOnly: boolean) => ColonyStore.open({ path, threads: 1, memoryLimit: '256MB', readOnly });

/** A refusal of `path` naming what was found, never its secret. */
async function refused(path: string, readOnly: boolean, found: string): Promise<void> {
  const err = await open(path, readOnly).then(
    async (store) => {
      await store.close();
      return null;
    },
    (e: Error & { hint?: string }) => e,
  );
  expect(err?.name).toBe('CoralError');
  expect(err?.message).toContain(`${path} is not a colony file as coral writes one, so it was not read`);
  expect(err?.message).toContain(found);
  expect(err?.hint).toMatch(/plain tables/);
  expect(`${err?.message} ${err?.hint}`).not.toContain(files.secret);
}

describe('a crafted colony file', { timeout: 60_000 }, () => {
  it('with otel_traces replaced by a view over read_text is refused, read-only and for writing', async () => {
    await refused(files.view, true, 'main.otel_traces (view): coral writes no views or macros');
    await refused(files.view, false, 'main.otel_traces (view)');
  });

  it('with a macro shadowing a DuckDB aggregate is refused, read-only and for writing', async () => {
    await refused(files.macro, true, 'main.any_value (macro)');
    await refused(files.macro, false, 'main.any_value (macro)');
  });

  it('whose table has other columns is refused, naming both column lists', async () => {
    const path = join(dir, 'columns.duckdb');
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    await conn.run('CREATE TABLE otel_logs (body VARCHAR)');
    conn.closeSync();
    instance.closeSync();
    await refused(path, true, "table otel_logs has columns (body VARCHAR); coral's has (log_id VARCHAR, time_ns BIGINT");
  });

  it('that coral wrote opens, and even so DuckDB reads nothing outside it nor lets a statement allow it', async () => {
    const store = await open(files.plain, true);
    try {
      expect((await store.counts()).spans).toBe(1);
      await expect(store.db.query(`SELECT content FROM read_text('${join(dir, 'secret.txt')}')`)).rejects.toThrow(/file system operations are disabled/);
      await expect(store.db.query('SET enable_external_access = true')).rejects.toThrow(/configuration has been locked/);
      await expect(store.db.query('INSTALL httpfs')).rejects.toThrow();
    } finally {
      await store.close();
    }
  });

  it("not coral's at all (another program's DuckDB file) is refused, and a text file is not taken for a colony", async () => {
    const path = join(dir, 'other.duckdb');
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    await conn.run('CREATE TABLE orders (id INTEGER)');
    conn.closeSync();
    instance.closeSync();
    await refused(path, true, "none of coral's tables (otel_traces");
    const text = join(dir, 'notes.duckdb');
    writeFileSync(text, 'not a database '.repeat(400));
    await expect(open(text, true)).rejects.toMatchObject({ name: 'CoralError', message: expect.stringContaining('not a valid DuckDB database file') });
  });
});

describe('judgeCatalog', () => {
  const asCoral = (): CatalogFacts => ({
    relations: COLONY_TABLES.map((t) => ({ name: t.name, type: 'BASE TABLE' as const, columns: t.columns.map((c) => ({ name: c.name, sqlType: c.sqlType })) })),
    code: [],
  });

  it("accepts coral's tables, and other tables beside them", () => {
    const facts = asCoral();
    facts.relations.push({ name: 'my_notes', type: 'BASE TABLE', columns: [{ name: 'text', sqlType: 'VARCHAR' }] });
    expect(judgeCatalog(facts)).toEqual({ ok: true, missing: [] });
  });

  it('names the tables a file lacks (a new file lacks them all)', () => {
    const facts = asCoral();
    facts.relations = facts.relations.filter((r) => r.name !== 'otel_metrics_summary');
    expect(judgeCatalog(facts)).toEqual({ ok: true, missing: ['otel_metrics_summary'] });
    expect(judgeCatalog({ relations: [], code: [] })).toEqual({ ok: true, missing: COLONY_TABLES.map((t) => t.name) });
  });

  it('refuses views and macros wherever they are, and a column of another type', () => {
    const facts = asCoral();
    facts.code.push('other.helper (table_macro)');
    const spans = facts.relations.find((r) => r.name === 'otel_traces');
    if (spans) spans.columns[3] = { name: 'trace_state', sqlType: 'INTEGER' };
    const verdict = judgeCatalog(facts);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? [] : verdict.problems).toEqual([
      'other.helper (table_macro): coral writes no views or macros',
      expect.stringMatching(/^table otel_traces has columns \(.*trace_state INTEGER.*\); coral's has \(.*trace_state VARCHAR/),
    ]);
  });
});
