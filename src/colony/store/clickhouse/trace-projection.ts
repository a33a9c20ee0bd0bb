import { createHash } from 'node:crypto';
import type { ChClient } from './client.js';
import { type TableNames, ident, qualified } from './ddl.js';
import { derivedColumns, storedName } from './derived.js';
import { lit } from './sql.js';

/** The exporter's columns a trace read (read-spans.ts traceSpans, views.ts SPAN_DETAIL) decodes. */
const TRACE_READ_COLUMNS = ['Timestamp', 'TraceId', 'SpanId', 'ParentSpanId', 'SpanName', 'SpanKind', 'ServiceName', 'Duration', 'StatusCode', 'ScopeName',
  'StatusMessage', 'SpanAttributes', 'Events.Timestamp', 'Events.Name', 'Events.Attributes', 'Links.TraceId', 'Links.SpanId'];
/** coral's stored columns it reads (the span's source and its resource's hash: the resource itself comes from the resource table). */
const TRACE_READ_DERIVED = ['source', 'resource_hash'];

const PREFIX = 'coral_by_trace_';

export interface TraceProjection {
  name: string;
  /** ADD PROJECTION: the parts inserted from then on carry it. */
  add: string;
  /** Builds it for the parts already there, as a background mutation. */
  materialize: string;
}

/**
 * The span columns a trace read needs, sorted by trace id, kept by ClickHouse inside each part of
 * the traces table. The exporter sorts spans by service and span name, so one trace's spans lie in
 * as many granules as it has distinct operations (57 spans in 19 granules of 8192 rows on the 10M
 * bench), each decoded whole: ~40 of the 52 ms a trace read took. In trace order they lie in one.
 * ClickHouse picks the projection by itself where it reads fewer granules (a query by trace id),
 * drops it with its part (retention), and reads parts without it from the table as before.
 * Named by a digest of its definition: a changed one is a new projection.
 */
export function traceProjection(database: string, traces: string): TraceProjection {
  const derived = derivedColumns('traces', true).filter((c) => TRACE_READ_DERIVED.includes(c.name)).map((c) => ident(storedName(c)));
  const select = `SELECT ${[...TRACE_READ_COLUMNS.map(ident), ...derived].join(', ')} ORDER BY TraceId`;
  const name = `${PREFIX}${createHash('sha1').update(select).digest('hex').slice(0, 8)}`;
  const table = qualified(database, traces);
  return {
    name,
    add: `ALTER TABLE ${table} ADD PROJECTION IF NOT EXISTS ${ident(name)} (${select})`,
    // chdb waits for mutations by default (mutations_sync = 1): on a large table that is seconds of open time.
    materialize: `ALTER TABLE ${table} MATERIALIZE PROJECTION ${ident(name)} SETTINGS mutations_sync = 0`,
  };
}

/** Projections of an older definition: they cost storage and inserts and no read picks them. */
export function staleProjections(present: readonly string[], current: string): string[] {
  return present.filter((p) => p.startsWith(PREFIX) && p !== current);
}

/**
 * Why coral does not add the projection, or null when it does. On by default in a chdb directory
 * (coral's own colony); on a server, whose operator pays for the storage and the rewrite of the
 * table's parts, only when clickhouse.trace_projection says so.
 */
export function projectionRefusal(o: { materialize?: boolean; traceProjection?: boolean; embedded: boolean }): string | null {
  if (o.materialize === false) return 'clickhouse.materialize is false';
  if (o.traceProjection === false) return 'clickhouse.trace_projection is false';
  if (o.traceProjection === undefined && !o.embedded) return 'a server\'s table gets it only with clickhouse.trace_projection: true';
  return null;
}

/**
 * Whether the trace projection is there (made now if missing and not `refused`), with a note saying
 * so or why not. It needs coral's stored columns (`ready`: derived columns and resource table) and
 * a MergeTree table coral may alter; a Distributed table would need it on every shard.
 */
export async function ensureTraceProjection(ch: ChClient, database: string, tables: TableNames, ready: boolean, refused: string | null): Promise<{ present: boolean; note: string }> {
  const p = traceProjection(database, tables.traces);
  const without = (why: string) => ({ present: false, note: `trace reads decode each span's granules in the exporter's order (no ${ident(p.name)} projection: ${why})` });
  if (refused !== null) return without(refused);
  if (!ready) return without(`${tables.traces} has no stored source and resource hash`);
  const made = { present: true, note: `spans also kept in trace order for trace reads (projection ${ident(p.name)} on ${tables.traces}; on disk up to twice the traces table's size; ALTER TABLE ... DROP PROJECTION removes it, clickhouse.trace_projection = false keeps it from coming back)` };
  // system.projections is recent: on a server without it, trace reads go as before.
  try {
    const present = (await ch.query<{ name: string }>(`SELECT name FROM system.projections WHERE database = ${lit(database)} AND table = ${lit(tables.traces)}`)).map((x) => x.name);
    const stale = staleProjections(present, p.name);
    // The usual open: already there, one catalog question.
    if (present.includes(p.name) && stale.length === 0) return made;
    const [t] = await ch.query<{ engine: string; rows: string | null; ddl: string }>(
      `SELECT engine, toString(total_rows) AS rows, create_table_query AS ddl FROM system.tables WHERE database = ${lit(database)} AND name = ${lit(tables.traces)}`,
    );
    if (!t) return without('no such table');
    if (!t.engine.endsWith('MergeTree')) return without(`engine ${t.engine}`);
    const table = qualified(database, tables.traces);
    for (const old of stale) await ch.command(`ALTER TABLE ${table} DROP PROJECTION IF EXISTS ${ident(old)}`);
    if (!present.includes(p.name)) {
      // By default a lightweight DELETE on a table with a projection fails; the Collector's operator may run one.
      if (!t.ddl.includes('lightweight_mutation_projection_mode')) await ch.command(`ALTER TABLE ${table} MODIFY SETTING lightweight_mutation_projection_mode = 'rebuild'`);
      await ch.command(p.add);
      if (Number(t.rows ?? 0) > 0) await ch.command(p.materialize);
    }
  } catch (err) {
    return without((err as Error).message.split('\n')[0].trim());
  }
  return made;
}
