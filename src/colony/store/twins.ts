import type { TableDef } from './columns.js';

/**
 * Which copy of a span wins when two arrive with the same trace and span id: the SDK's (otlp) span
 * is canonical whatever the order, because it carries the application's own names and attributes;
 * the eBPF copy is kept as evidence in the attribute `coral.ebpf_twin` (its name, timing, status,
 * scope) rather than thrown away, also across a re-send of the SDK span. Between copies of the same
 * source, the newer one wins (a re-send). (json_merge_patch drops a key set to null: no evidence, no key.)
 */
export const TWIN_EVIDENCE_KEY = 'coral.ebpf_twin';

const evidence = (t: string) =>
  `json_object('${TWIN_EVIDENCE_KEY}', json_object('name', ${t}.name, 'start_ns', ${t}.start_ns, 'end_ns', ${t}.end_ns, 'status_code', ${t}.status_code, 'scope_name', ${t}.scope_name))`;

/** The statements of one span upsert (spanUpsert), run in order in the caller's one transaction. */
export interface SpanUpsert {
  /** Finds the stored copies, by rowid. */
  findStored: string;
  /** Drops from the stage what is stored as sent: its row count is how many went. */
  dropResent: string;
  /** Copies the stored copies of what is left out and merges the stage into them. */
  merge: string[];
  /** Deletes the stored copies being replaced: its row count is what the upsert took away. */
  remove: string;
  /** Inserts the merged rows: its row count less remove's is how many spans the table gained. */
  insert: string;
  /** Drops the work tables. */
  finish: string[];
}

/**
 * Upserts spans from a staging table, one row per key (otlp first, then newest). The spans table has
 * no key index, so a MERGE straight into it would read every column of every stored row (~650 ms CPU
 * at 3M spans, measured); instead the stored rows sharing a span id with the batch are found by
 * scanning that one column, read by rowid (DuckDB then skips the row groups without them: a
 * re-send's first copy is recent, so this reads little), merged with the batch, deleted, and the
 * merged rows inserted back. The rowids must not move meanwhile: the caller has made its transaction
 * a write one first (upsert.ts PIN_ROWIDS).
 *
 * First, a staged span equal in every column to its stored copy (an exporter's retry: the usual
 * re-send) is dropped from the stage, and its stored row left alone; when that empties the stage the
 * caller stops there, so a retried batch costs a scan and a comparison, not a copy, a delete and an
 * insert (issue 39). Only where the stage holds that key once: beside another copy in the same
 * batch, the twin rules decide.
 */
export function spanUpsert(table: TableDef<unknown>, stage: string): SpanUpsert {
  const cols = table.columns.map((c) => c.name);
  const list = cols.join(', ');
  const work = 'span_upsert';
  const keyOf = (a: string, b: string) => table.primaryKey.map((k) => `${a}.${k} = ${b}.${k}`).join(' AND ');
  const key = table.primaryKey.join(', ');
  const same = cols.map((c) => `s.${c} IS NOT DISTINCT FROM w.${c}`).join(' AND ');
  const stored = (what: string) => `SELECT ${what} FROM ${table.name} WHERE rowid IN (SELECT stored_rowid FROM ${work}_rows)`;
  return {
    findStored: `CREATE OR REPLACE TEMP TABLE ${work}_rows AS SELECT rowid AS stored_rowid FROM ${table.name} WHERE span_id IN (SELECT span_id FROM ${stage})`,
    dropResent: `DELETE FROM ${stage} WHERE rowid IN (
        SELECT s.rowid FROM ${stage} s JOIN (${stored(list)}) w ON ${same}
        JOIN (SELECT ${key} FROM ${stage} GROUP BY ${key} HAVING count(*) = 1) once ON ${keyOf('s', 'once')})`,
    merge: [
      `CREATE OR REPLACE TEMP TABLE ${work} AS SELECT * FROM (${stored(`rowid AS stored_rowid, ${list}`)}) w
        WHERE EXISTS (SELECT 1 FROM ${stage} s WHERE ${keyOf('s', 'w')})`,
      spanMergeSql({ ...table, name: work }, stage),
    ],
    remove: `DELETE FROM ${table.name} WHERE rowid IN (SELECT stored_rowid FROM ${work} WHERE stored_rowid IS NOT NULL)`,
    insert: `INSERT INTO ${table.name} (${list}) SELECT ${list} FROM ${work}`,
    finish: [`DROP TABLE IF EXISTS ${work}`, `DROP TABLE ${work}_rows`],
  };
}

const twinOf = (t: string) => `json_extract(${t}.attributes, '$."${TWIN_EVIDENCE_KEY}"')`;

/** MERGE of the staged spans into `table`, whose rows sharing a key with them are replaced or kept as twins say. */
function spanMergeSql(table: TableDef<unknown>, stage: string): string {
  const cols = table.columns.map((c) => c.name);
  const key = new Set(table.primaryKey);
  const keepOld = `(${table.name}.source = 'otlp' AND excluded.source <> 'otlp')`;
  const sdkReplacesEbpf = `(${table.name}.source <> 'otlp' AND excluded.source = 'otlp')`;
  const set = cols.filter((c) => !key.has(c)).map((c) => {
    if (c === 'attributes') {
      return `attributes = CASE WHEN ${keepOld} THEN json_merge_patch(${table.name}.attributes, ${evidence('excluded')})
        WHEN ${sdkReplacesEbpf} THEN json_merge_patch(excluded.attributes, ${evidence(table.name)})
        WHEN ${table.name}.source = 'otlp' AND excluded.source = 'otlp'
          THEN json_merge_patch(excluded.attributes, json_object('${TWIN_EVIDENCE_KEY}', coalesce(${twinOf(table.name)}, ${twinOf('excluded')})))
        ELSE excluded.attributes END`;
    }
    return `${c} = CASE WHEN ${keepOld} THEN ${table.name}.${c} ELSE excluded.${c} END`;
  });
  const byKey = `PARTITION BY ${table.primaryKey.join(', ')}`;
  // The copy kept of a key the batch holds twice; an eBPF copy beside the SDK's is kept as its evidence.
  const staged = cols.map((c) => (c === 'attributes' ? `CASE WHEN source = 'otlp' AND batch_twin IS NOT NULL THEN json_merge_patch(attributes, batch_twin) ELSE attributes END AS attributes` : c));
  return `MERGE INTO ${table.name}
    USING (SELECT ${staged.join(', ')} FROM (
        SELECT *, rowid AS staged_at, first_value(CASE WHEN source <> 'otlp' THEN ${evidence('s')} END IGNORE NULLS)
          OVER (${byKey} ORDER BY rowid DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS batch_twin
        FROM ${stage} s)
      QUALIFY row_number() OVER (${byKey} ORDER BY (source = 'otlp') DESC, staged_at DESC) = 1) AS excluded
    ON (${table.primaryKey.map((k) => `${table.name}.${k} = excluded.${k}`).join(' AND ')})
    WHEN MATCHED THEN UPDATE SET ${set.join(',\n      ')}
    WHEN NOT MATCHED THEN INSERT (${cols.join(', ')}) VALUES (${cols.map((c) => `excluded.${c}`).join(', ')})`;
}
