import type { ChClient } from './client.js';
import { type TableNames, ident, qualified } from './ddl.js';
import { derivedColumns, storedName } from './derived.js';
import { lit } from './sql.js';

export type TableKey = keyof TableNames;

/** Which tables carry coral's derived columns, and in words why the others do not. */
export interface Materialization {
  materialized: Record<TableKey, boolean>;
  note: string;
}

const KEYS: TableKey[] = ['traces', 'logs', 'gauge', 'sum', 'histogram'];

/** What the catalog says about one table: its engine and its columns. */
export interface TableState {
  engine: string;
  columns: ReadonlySet<string>;
  rows: number;
}

/** The ALTER statement that adds a table's missing derived columns, or null when none is missing. */
export function addColumnsStatement(database: string, name: string, which: TableKey, logsHaveEventName: boolean, existing: ReadonlySet<string>): string | null {
  const missing = derivedColumns(which, logsHaveEventName).filter((c) => !existing.has(storedName(c)));
  if (missing.length === 0) return null;
  const adds = missing.map((c) => `ADD COLUMN IF NOT EXISTS ${ident(storedName(c))} ${c.type} MATERIALIZED ${c.expr}`);
  return `ALTER TABLE ${qualified(database, name)} ${adds.join(', ')}`;
}

/** Parts written before the columns existed compute them at read time until rewritten: this rewrites them once, in the background. */
export function materializeStatement(database: string, name: string, which: TableKey, logsHaveEventName: boolean): string {
  return `ALTER TABLE ${qualified(database, name)} ${derivedColumns(which, logsHaveEventName).map((c) => `MATERIALIZE COLUMN ${ident(storedName(c))}`).join(', ')}`;
}

async function tableStates(ch: ChClient, database: string, tables: TableNames): Promise<Map<string, TableState>> {
  const names = `(${KEYS.map((k) => lit(tables[k])).join(', ')})`;
  const [engines, columns] = await Promise.all([
    ch.query<{ name: string; engine: string; rows: string | null }>(`SELECT name, engine, toString(total_rows) AS rows FROM system.tables WHERE database = ${lit(database)} AND name IN ${names}`),
    ch.query<{ table: string; name: string }>(`SELECT table, name FROM system.columns WHERE database = ${lit(database)} AND table IN ${names} AND startsWith(name, 'coral_')`),
  ]);
  const out = new Map<string, TableState>();
  for (const e of engines) {
    out.set(e.name, { engine: e.engine, rows: Number(e.rows ?? 0), columns: new Set(columns.filter((c) => c.table === e.name).map((c) => c.name)) });
  }
  return out;
}

/**
 * Adds the derived columns (source, promoted attributes, event kind, series key) to the exporter's
 * tables as MATERIALIZED columns, which the Collector's own inserts fill (they name their columns,
 * and `SELECT *` leaves MATERIALIZED columns out, so the Collector's schema reads as before).
 * Only MergeTree-family tables are altered (a Distributed table would need it on every shard);
 * when coral may not alter a table (`allowed` false, a read-only user), it computes them at read time.
 */
export async function ensureDerivedColumns(ch: ChClient, database: string, tables: TableNames, logsHaveEventName: boolean, allowed: boolean): Promise<Materialization> {
  const states = await tableStates(ch, database, tables);
  const materialized = Object.fromEntries(KEYS.map((k) => [k, false])) as Record<TableKey, boolean>;
  /** Tables by the reason they go without. */
  const reasons = new Map<string, string[]>();
  const without = (table: string, why: string) => reasons.set(why, [...(reasons.get(why) ?? []), table]);
  for (const k of KEYS) {
    const name = tables[k];
    const state = states.get(name);
    if (!state) {
      without(name, 'no such table');
      continue;
    }
    const add = addColumnsStatement(database, name, k, logsHaveEventName, state.columns);
    if (add === null) {
      materialized[k] = true;
      continue;
    }
    if (!allowed) {
      without(name, 'clickhouse.materialize is false');
      continue;
    }
    if (!state.engine.endsWith('MergeTree')) {
      without(name, `engine ${state.engine} (only MergeTree tables are altered)`);
      continue;
    }
    try {
      await ch.command(add);
      if (state.rows > 0) await ch.command(materializeStatement(database, name, k, logsHaveEventName));
      materialized[k] = true;
    } catch (err) {
      without(name, (err as Error).message.split('\n')[0].trim());
    }
  }
  const done = KEYS.filter((k) => materialized[k]).map((k) => tables[k]);
  const note = reasons.size === 0
    ? `derived columns (source, promoted attributes) stored as MATERIALIZED coral_* columns on ${done.join(', ')}`
    : `derived columns computed at read time (slower) for ${[...reasons].map(([why, t]) => `${t.join(', ')}: ${why}`).join('; ')}${done.length > 0 ? `; stored on ${done.join(', ')}` : ''}`;
  return { materialized, note };
}
