import type { ChClient } from './client.js';
import { lit, list } from './sql.js';
import type { ChSchema } from './views.js';
import { SUMMARY_TABLE } from './ddl.js';

/** The cutoff's UTC day as a Date partition's id (YYYYMMDD). */
export function dayId(cutoffNs: bigint): number {
  return Number(new Date(Number(cutoffNs / 1_000_000n)).toISOString().slice(0, 10).replaceAll('-', ''));
}

/**
 * Retention on ClickHouse (issue 33): drops one whole partition older than the cutoff's day from the
 * exporter's tables (PARTITION BY toDate(...): a day each), the trace-id lookup table included; the
 * rows it held (at least 1, so the loop asks again), or 0 when none is left. A partition is dropped
 * only once all of it is older than the cutoff's day, so up to a day beyond the retention stays.
 * Tables partitioned otherwise, and coral's side tables (registry, resources), are left alone.
 */
export async function dropOldPartition(ch: ChClient, s: ChSchema, cutoffNs: bigint): Promise<number> {
  const names = [...Object.values(s.tables), SUMMARY_TABLE, `${s.tables.traces}_trace_id_ts`];
  const [old] = await ch.query<{ table: string; id: string; rows: number }>(
    `SELECT p.table AS table, p.partition_id AS id, toFloat64(sum(p.rows)) AS rows
     FROM system.parts AS p INNER JOIN system.tables AS t ON t.database = p.database AND t.name = p.table
     WHERE p.database = ${lit(s.database)} AND p.active AND p.table IN ${list(names)}
       AND match(t.partition_key, '^toDate\\\\(\\\\w+\\\\)$') AND match(p.partition_id, '^[0-9]{8}$')
       AND toUInt32(p.partition_id) < ${dayId(cutoffNs)}
     GROUP BY p.table, p.partition_id ORDER BY p.partition_id LIMIT 1`,
  );
  if (!old) return 0;
  await ch.command(`ALTER TABLE \`${s.database}\`.\`${old.table}\` DROP PARTITION ID ${lit(old.id)}`);
  return Math.max(1, old.rows);
}
