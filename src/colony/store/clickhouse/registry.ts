import { createHash } from 'node:crypto';
import type { ChClient } from './client.js';
import { type TableNames, ident, qualified } from './ddl.js';
import { derivedColumns } from './derived.js';
import type { TableKey } from './materialize.js';
import { lit } from './sql.js';

/**
 * The service registry kept up to date by ClickHouse itself, as the DuckDB colony keeps
 * coral_services at ingest: materialized views on the five tables fold every insert into first and
 * last sightings per service and source, so listing services reads a few rows instead of scanning
 * every table. min/max folding is idempotent, so a backfill that overlaps live inserts is harmless.
 */

const SIGHTINGS: Record<TableKey, { first: string; last: string }> = {
  traces: { first: 'toUnixTimestamp64Nano(Timestamp)', last: 'toUnixTimestamp64Nano(Timestamp) + toInt64(Duration)' },
  logs: { first: 'toUnixTimestamp64Nano(Timestamp)', last: 'toUnixTimestamp64Nano(Timestamp)' },
  gauge: { first: 'toUnixTimestamp64Nano(TimeUnix)', last: 'toUnixTimestamp64Nano(TimeUnix)' },
  sum: { first: 'toUnixTimestamp64Nano(TimeUnix)', last: 'toUnixTimestamp64Nano(TimeUnix)' },
  histogram: { first: 'toUnixTimestamp64Nano(TimeUnix)', last: 'toUnixTimestamp64Nano(TimeUnix)' },
};

const KEYS = Object.keys(SIGHTINGS) as TableKey[];
const BACKFILLED = 'coral service registry: backfilled';

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

export function registryStatements(database: string, tables: TableNames, logsHaveEventName: boolean): { create: string[]; backfill: string[] } {
  const name = registryTableName(tables, logsHaveEventName);
  const target = qualified(database, name);
  return {
    create: [
      `CREATE TABLE IF NOT EXISTS ${target} (
        ServiceName LowCardinality(String),
        Source LowCardinality(String),
        FirstSeen SimpleAggregateFunction(min, Int64),
        LastSeen SimpleAggregateFunction(max, Int64)
      ) ENGINE = AggregatingMergeTree ORDER BY (ServiceName, Source)`,
      ...KEYS.map((k) => `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(database, `${name}_${k}_mv`)} TO ${target} AS ${sightingsSelect(database, tables, k, logsHaveEventName)}`),
    ],
    // After the views exist, so that no insert falls between the two.
    backfill: KEYS.map((k) => `INSERT INTO ${target} (ServiceName, Source, FirstSeen, LastSeen) ${sightingsSelect(database, tables, k, logsHaveEventName)}`),
  };
}

/**
 * The registry table, created and backfilled when missing; null (the registry is then computed by a
 * scan of every table) when coral may not create it or the tables are not all single-node MergeTree
 * tables (a view on one replica or shard would see only that node's inserts).
 */
export async function ensureRegistry(ch: ChClient, database: string, tables: TableNames, logsHaveEventName: boolean, allowed: boolean): Promise<{ table: string | null; note: string }> {
  const name = registryTableName(tables, logsHaveEventName);
  const views = KEYS.map((k) => `${name}_${k}_mv`);
  const present = await ch.query<{ name: string; engine: string; comment: string }>(
    `SELECT name, engine, comment FROM system.tables WHERE database = ${lit(database)} AND name IN (${[name, ...views, ...KEYS.map((k) => tables[k])].map(lit).join(', ')})`,
  );
  const have = new Map(present.map((p) => [p.name, p]));
  const stored = `service registry kept by materialized views in ${ident(name)} (drop its ${ident(`${name}_*_mv`)} views before the table: inserts feed it)`;
  // The comment is set once the backfill is complete: a colony stopped half-way starts over.
  if (have.get(name)?.comment === BACKFILLED && views.every((v) => have.has(v))) return { table: name, note: stored };
  const scanned = (why: string) => ({ table: null, note: `service registry computed by scanning every table (${why})` });
  if (!allowed) return scanned('clickhouse.materialize is false');
  const unfit = KEYS.map((k) => tables[k]).filter((t) => !/^(?!Replicated).*MergeTree$/.test(have.get(t)?.engine ?? ''));
  if (unfit.length > 0) return scanned(`${unfit.map((t) => `${t}: ${have.get(t)?.engine ?? 'no such table'}`).join(', ')}; only single-node MergeTree tables get views`);
  const { create, backfill } = registryStatements(database, tables, logsHaveEventName);
  try {
    for (const sql of create) await ch.command(sql);
    for (const sql of backfill) await ch.command(sql);
    await ch.command(`ALTER TABLE ${qualified(database, name)} MODIFY COMMENT ${lit(BACKFILLED)}`);
  } catch (err) {
    // Views left behind would feed (and could fail) every insert into the Collector's tables.
    for (const v of views) await ch.command(`DROP VIEW IF EXISTS ${qualified(database, v)}`).catch(() => undefined);
    return scanned((err as Error).message.split('\n')[0]);
  }
  return { table: name, note: stored };
}
