import type { ChClient } from './client.js';
import { type TableNames, qualified } from './ddl.js';
import type { TableKey } from './materialize.js';
import { lit } from './sql.js';

/**
 * A table coral keeps beside the exporter's, fed by materialized views on them (the service
 * registry, the resource table): created, backfilled from the rows already there, then marked
 * complete by its comment, so that a colony stopped half-way starts over.
 */
export interface SideTable {
  name: string;
  /** The exporter's tables its views read. */
  feeds: readonly TableKey[];
  /** The views, created by `create` after the table. */
  views: readonly string[];
  create: readonly string[];
  /** Run after the views exist, so that no insert falls between the two; must be harmless over rows a view also saw. */
  backfill: readonly string[];
}

const COMPLETE = 'coral: backfilled';

/**
 * Null when the table is ready, else why it is not used. It is not made when coral may not create
 * it or a fed table is not a single-node MergeTree table (a view on one replica or shard would see
 * only that node's inserts).
 */
export async function ensureSideTable(ch: ChClient, database: string, tables: TableNames, t: SideTable, allowed: boolean): Promise<string | null> {
  const fed = t.feeds.map((k) => tables[k]);
  const present = await ch.query<{ name: string; engine: string; comment: string }>(
    `SELECT name, engine, comment FROM system.tables WHERE database = ${lit(database)} AND name IN (${[t.name, ...t.views, ...fed].map(lit).join(', ')})`,
  );
  const have = new Map(present.map((p) => [p.name, p]));
  if (have.get(t.name)?.comment === COMPLETE && t.views.every((v) => have.has(v))) return null;
  if (!allowed) return 'clickhouse.materialize is false';
  const unfit = fed.filter((name) => !/^(?!Replicated).*MergeTree$/.test(have.get(name)?.engine ?? ''));
  if (unfit.length > 0) return `${unfit.map((name) => `${name}: ${have.get(name)?.engine ?? 'no such table'}`).join(', ')}; only single-node MergeTree tables get views`;
  try {
    for (const sql of t.create) await ch.command(sql);
    for (const sql of t.backfill) await ch.command(sql);
    await ch.command(`ALTER TABLE ${qualified(database, t.name)} MODIFY COMMENT ${lit(COMPLETE)}`);
  } catch (err) {
    // Views left behind would feed (and could fail) every insert into the Collector's tables.
    for (const v of t.views) await ch.command(`DROP VIEW IF EXISTS ${qualified(database, v)}`).catch(() => undefined);
    return (err as Error).message.split('\n')[0];
  }
  return null;
}
