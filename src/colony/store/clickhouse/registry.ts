import { createHash } from 'node:crypto';
import type { ChClient } from './client.js';
import { type TableNames, ident, qualified } from './ddl.js';
import { derivedColumns } from './derived.js';
import type { TableKey } from './materialize.js';
import { type SideTable, ensureSideTable } from './side-table.js';

/**
 * The service registry kept up to date by ClickHouse itself, as the DuckDB colony keeps
 * coral_services at ingest: materialized views on the five tables fold every insert into first and
 * last sightings per service and source, so listing services reads a few rows instead of scanning
 * every table.
 */

const SIGHTINGS: Record<TableKey, { first: string; last: string }> = {
  traces: { first: 'toUnixTimestamp64Nano(Timestamp)', last: 'toUnixTimestamp64Nano(Timestamp) + toInt64(Duration)' },
  logs: { first: 'toUnixTimestamp64Nano(Timestamp)', last: 'toUnixTimestamp64Nano(Timestamp)' },
  gauge: { first: 'toUnixTimestamp64Nano(TimeUnix)', last: 'toUnixTimestamp64Nano(TimeUnix)' },
  sum: { first: 'toUnixTimestamp64Nano(TimeUnix)', last: 'toUnixTimestamp64Nano(TimeUnix)' },
  histogram: { first: 'toUnixTimestamp64Nano(TimeUnix)', last: 'toUnixTimestamp64Nano(TimeUnix)' },
};

const KEYS = Object.keys(SIGHTINGS) as TableKey[];

function expr(which: TableKey, name: string, logsHaveEventName: boolean): string {
  const c = derivedColumns(which, logsHaveEventName).find((x) => x.name === name);
  if (!c) throw new Error(`no derived column ${name} on ${which}`);
  return c.expr;
}

/** The sightings in one table's rows (an insert block, for the views; the whole table, for the backfill). */
function sightingsSelect(database: string, tables: TableNames, which: TableKey, logsHaveEventName: boolean): string {
  // An event sent by a deploy tool (no telemetry SDK on its resource) says nothing about how the service is instrumented.
  const where = which === 'logs'
    ? `WHERE NOT (${expr('logs', 'event_kind', logsHaveEventName)} != '' AND NOT ${expr('logs', 'has_sdk', logsHaveEventName)})`
    : '';
  const { first, last } = SIGHTINGS[which];
  return `SELECT ServiceName, ${expr(which, 'source', logsHaveEventName)} AS Source, min(${first}) AS FirstSeen, max(${last}) AS LastSeen
    FROM ${qualified(database, tables[which])} ${where} GROUP BY ServiceName, Source`;
}

/** The registry table's name: beside the traces table, with a digest of its rules (a rule change starts a new one). */
export function registryTableName(tables: TableNames, logsHaveEventName: boolean): string {
  const rules = KEYS.map((k) => sightingsSelect('', tables, k, logsHaveEventName)).join('\n');
  return `${tables.traces}_coral_services_${createHash('sha1').update(rules).digest('hex').slice(0, 8)}`;
}

/** The registry table, its views and backfill (min/max folding is idempotent: a backfill that overlaps live inserts is harmless). */
export function registryTable(database: string, tables: TableNames, logsHaveEventName: boolean): SideTable {
  const name = registryTableName(tables, logsHaveEventName);
  const target = qualified(database, name);
  const views = KEYS.map((k) => `${name}_${k}_mv`);
  return {
    name,
    feeds: KEYS,
    views,
    create: [
      `CREATE TABLE IF NOT EXISTS ${target} (
        ServiceName LowCardinality(String),
        Source LowCardinality(String),
        FirstSeen SimpleAggregateFunction(min, Int64),
        LastSeen SimpleAggregateFunction(max, Int64)
      ) ENGINE = AggregatingMergeTree ORDER BY (ServiceName, Source)`,
      ...KEYS.map((k, i) => `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(database, views[i])} TO ${target} AS ${sightingsSelect(database, tables, k, logsHaveEventName)}`),
    ],
    backfill: KEYS.map((k) => `INSERT INTO ${target} (ServiceName, Source, FirstSeen, LastSeen) ${sightingsSelect(database, tables, k, logsHaveEventName)}`),
  };
}

/** The registry table's name, or null (the registry is then computed by a scan of every table) with the reason in the note. */
export async function ensureRegistry(ch: ChClient, database: string, tables: TableNames, logsHaveEventName: boolean, allowed: boolean): Promise<{ table: string | null; note: string }> {
  const t = registryTable(database, tables, logsHaveEventName);
  const why = await ensureSideTable(ch, database, tables, t, allowed);
  return why === null
    ? { table: t.name, note: `service registry kept by materialized views in ${ident(t.name)} (drop its ${ident(`${t.name}_*_mv`)} views before the table: inserts feed it)` }
    : { table: null, note: `service registry computed by scanning every table (${why})` };
}
