import type { Database } from './db.js';
import { APPENDED_TABLES, SPANS } from './schema.js';

/**
 * Rows one retention step deletes per table at most (issue 33): a DuckDB DELETE holds the table's
 * other writers only while it runs, and ~20k rows of the oldest row groups measured well under the
 * 250 ms an ingest may pause (test/colony/store/retention.test.ts, the scale bench).
 */
export const RETENTION_STEP_ROWS = 20_000;

/** The instant each appended table is aged by: a span's start, any other row's time. */
const timeColumn = (table: string) => (table === SPANS.name ? 'start_ns' : 'time_ns');

/**
 * Deletes at most `maxRows` rows per table that are older than `cutoffNs`, oldest row groups first;
 * returns how many went. The filter is on the raw time column, so DuckDB skips younger row groups by
 * their zone maps; whole row groups emptied this way are freed at the next checkpoint and their
 * blocks reused, which keeps the file's size bounded. The service registry is kept.
 */
export async function deleteOlderThan(db: Database, cutoffNs: bigint, maxRows = RETENTION_STEP_ROWS): Promise<number> {
  let deleted = 0;
  for (const { table } of APPENDED_TABLES) {
    const t = timeColumn(table.name);
    // The age test again outside the rowids: should a checkpoint renumber the rows between the
    // subquery and the delete, what goes is still only rows past the retention (issue 39).
    const r = await db.retention.run(
      `DELETE FROM ${table.name} WHERE ${t} < ${cutoffNs} AND rowid IN (SELECT rowid FROM ${table.name} WHERE ${t} < ${cutoffNs} LIMIT ${maxRows})`,
    );
    deleted += Number(r.rowsChanged);
  }
  return deleted;
}
