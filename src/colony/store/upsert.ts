import type { DuckDBConnection } from '@duckdb/node-api';
import { type TableDef, storedColumnNames } from './columns.js';
import { SPANS } from './schema.js';
import { spanUpsert } from './twins.js';

/**
 * Makes the upsert's transaction a write transaction before it reads a rowid. A checkpoint renumbers
 * the rows of a table that lost whole row groups, and it does so under a transaction that has only
 * read (a plain CHECKPOINT is refused, and a FORCE CHECKPOINT waits, only beside one that has
 * written): rowids read before it would then delete other spans and leave the stored copies, which
 * lost acknowledged batches and stored re-sent ones twice (issue 39). A write that changes nothing
 * pins them for the whole transaction, whoever checkpoints (the checkpointer, DuckDB's own).
 */
const PIN_ROWIDS = `UPDATE coral_meta SET value = value WHERE key = 'schema_version'`;

/**
 * Upserts what the staging tables (`stage_<table>`) of `tables` hold, in one transaction: spans by
 * the twin rules (twins.ts), other rows by their key. Resolves to how many spans the table gained
 * (0 for a pure re-send); `stagedSpans` is how many spans were staged.
 */
export async function upsertStaged(conn: DuckDBConnection, tables: readonly TableDef<unknown>[], stagedSpans: number): Promise<number> {
  await conn.run('BEGIN TRANSACTION');
  try {
    await conn.run(PIN_ROWIDS);
    let gained = 0;
    for (const table of tables) {
      if (table.name === SPANS.name) {
        gained = await upsertSpans(conn, table, stagedSpans);
        continue;
      }
      const cols = storedColumnNames(table);
      // A key twice in the batch (a span repeated in one request, or two senders' copies in one
      // group) would make DuckDB refuse the whole statement: the last copy wins, as across batches.
      await conn.run(`INSERT OR REPLACE INTO ${table.name} (${cols}) SELECT ${cols} FROM stage_${table.name} QUALIFY row_number() OVER (PARTITION BY ${table.primaryKey.join(', ')} ORDER BY rowid DESC) = 1`);
    }
    await conn.run('COMMIT');
    return gained;
  } catch (err) {
    await rollback(conn);
    throw err;
  }
}

async function upsertSpans(conn: DuckDBConnection, table: TableDef<unknown>, staged: number): Promise<number> {
  const upsert = spanUpsert(table, `stage_${table.name}`);
  let gained = 0;
  await conn.run(upsert.findStored);
  // Every span stored as sent (an exporter's retry): nothing to merge, delete or insert.
  if (Number((await conn.run(upsert.dropResent)).rowsChanged) < staged) {
    await conn.run(upsert.merge.join(';\n'));
    const removed = Number((await conn.run(upsert.remove)).rowsChanged);
    gained = Number((await conn.run(upsert.insert)).rowsChanged) - removed;
  }
  await conn.run(upsert.finish.join(';\n'));
  return gained;
}

/** A failed COMMIT may already have ended the transaction; then there is nothing to roll back. */
export async function rollback(conn: DuckDBConnection): Promise<void> {
  await conn.run('ROLLBACK').catch(() => undefined);
}
