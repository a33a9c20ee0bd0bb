import { createHash } from 'node:crypto';
import type { ChClient } from './client.js';
import { type TableNames, ident, qualified } from './ddl.js';
import { RESOURCE_HASH } from './derived.js';
import { type SideTable, ensureSideTable } from './side-table.js';
import { lit } from './sql.js';

/**
 * Each distinct span resource once, by its hash. Reading a trace decodes whole granules (8192 rows,
 * mostly other traces' spans: the exporter sorts by service and span name, not trace), and
 * ResourceAttributes is the widest column in them; with this table a trace read decodes each span's
 * stored hash instead and fetches the few maps it needs here.
 */
export function resourceTable(database: string, tables: TableNames): SideTable {
  // Aliased apart from the column: ClickHouse forbids an aggregate alias that shadows its own input.
  const select = (from: string) => `SELECT ${RESOURCE_HASH.expr} AS Hash, any(ResourceAttributes) AS Resource FROM ${from} GROUP BY Hash`;
  // Rows repeat across inserts until merges fold them; readers take any one per hash.
  const columns = '(Hash UInt64, Resource Map(LowCardinality(String), String)) ENGINE = ReplacingMergeTree ORDER BY Hash';
  // A changed rule starts a new table.
  const name = `${tables.traces}_coral_resources_${createHash('sha1').update(`${select('')}\n${columns}`).digest('hex').slice(0, 8)}`;
  const target = qualified(database, name);
  const view = `${name}_mv`;
  return {
    name,
    feeds: ['traces'],
    views: [view],
    create: [
      `CREATE TABLE IF NOT EXISTS ${target} ${columns}`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(database, view)} TO ${target} AS ${select(qualified(database, tables.traces))}`,
    ],
    backfill: [`INSERT INTO ${target} (Hash, Resource) ${select(qualified(database, tables.traces))}`],
  };
}

/** The resource table's name, or null (trace reads then decode ResourceAttributes) with the reason in the note. */
export async function ensureResources(ch: ChClient, database: string, tables: TableNames, hashStored: boolean, allowed: boolean): Promise<{ table: string | null; note: string }> {
  const t = resourceTable(database, tables);
  const why = hashStored ? await ensureSideTable(ch, database, tables, t, allowed) : `${tables.traces} has no stored resource hash`;
  return why === null
    ? { table: t.name, note: `span resources kept once each in ${ident(t.name)} (drop its ${ident(`${t.name}_mv`)} view before the table: inserts feed it)` }
    : { table: null, note: `span resources read with every span (${why})` };
}

/** The resource maps of the given hashes (decimal strings, as 64-bit integers travel); a hash not there yet is absent. */
export async function resourcesByHash(ch: ChClient, database: string, table: string, hashes: readonly string[]): Promise<Map<string, Record<string, string>>> {
  if (hashes.length === 0) return new Map();
  const rows = await ch.query<{ h: string; r: Record<string, string> }>(
    `SELECT toString(Hash) AS h, any(Resource) AS r FROM ${qualified(database, table)} WHERE Hash IN (${hashes.map((h) => `toUInt64(${lit(h)})`).join(', ')}) GROUP BY Hash`,
  );
  return new Map(rows.map((x) => [x.h, x.r]));
}
