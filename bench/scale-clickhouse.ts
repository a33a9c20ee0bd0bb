/**
 * The scale colony's earlier hours in ClickHouse, copied inside ClickHouse: coral's writer stores the
 * newest hour (as the exporter or `coral colony serve` would), then each earlier copy is an INSERT …
 * SELECT of that hour with every DateTime64 an hour earlier per copy and the ids made the copy's own,
 * as scale-colony.ts does for DuckDB. Writing every copy through coral's JSON inserts ran at ~3k
 * spans/s on the shared machine (a 10M colony would take an hour to build); ClickHouse computes the
 * materialized columns and feeds the side tables' views on an INSERT … SELECT as on any insert.
 */
import type { ChClient } from '../src/colony/store/clickhouse/client.js';

/** The exporter's tables that may hold rows (the summary table exists only where it was made). */
const TABLES = ['otel_traces', 'otel_logs', 'otel_metrics_gauge', 'otel_metrics_sum', 'otel_metrics_histogram', 'otel_metrics_summary'];
const ID_COLUMNS = new Set(['TraceId', 'SpanId', 'ParentSpanId']);

interface Column {
  name: string;
  type: string;
}

/** The SELECT list of copy `copy`: every stored column, times `copy` hours earlier and ids prefixed as copyId does. */
function copyColumns(cols: Column[], copy: number): string {
  const prefix = (copy & 0xffff).toString(16).padStart(4, '0');
  return cols.map(({ name, type }) => {
    const c = `\`${name}\``;
    if (/^DateTime64/.test(type)) return `${c} - toIntervalHour(${copy}) AS ${c}`;
    if (/^Array\(DateTime64/.test(type)) return `arrayMap(t -> t - toIntervalHour(${copy}), ${c}) AS ${c}`;
    if (ID_COLUMNS.has(name)) return `if(length(${c}) IN (16, 32), concat('${prefix}', substring(${c}, 5)), ${c}) AS ${c}`;
    return c;
  }).join(', ');
}

/** Copies 1 to `hours - 1` of what the database holds now (copy 0), oldest first; `progress` after each. */
export async function copyHours(ch: ChClient, database: string, hours: number, progress: (hoursDone: number) => void): Promise<void> {
  const present = new Set((await ch.query<{ name: string }>(`SELECT name FROM system.tables WHERE database = '${database}'`)).map((r) => r.name));
  const tables = TABLES.filter((t) => present.has(t));
  const sources: { table: string; src: string; cols: Column[] }[] = [];
  for (const table of tables) {
    // Stored columns only: MATERIALIZED and ALIAS ones are ClickHouse's to compute.
    const cols = await ch.query<Column>(`SELECT name, type FROM system.columns WHERE database = '${database}' AND table = '${table}' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS') ORDER BY position`);
    const src = `${table}_scale_src`;
    await ch.command(`DROP TABLE IF EXISTS ${database}.${src}`);
    await ch.command(`CREATE TABLE ${database}.${src} ENGINE = Memory AS SELECT ${cols.map((c) => `\`${c.name}\``).join(', ')} FROM ${database}.${table}`);
    sources.push({ table, src, cols });
  }
  for (let copy = hours - 1; copy >= 1; copy--) {
    for (const { table, src, cols } of sources) {
      await ch.command(`INSERT INTO ${database}.${table} (${cols.map((c) => `\`${c.name}\``).join(', ')}) SELECT ${copyColumns(cols, copy)} FROM ${database}.${src}`);
    }
    progress(hours - copy + 1);
  }
  for (const { src } of sources) await ch.command(`DROP TABLE ${database}.${src}`);
}
