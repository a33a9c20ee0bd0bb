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

/**
 * The statements that upsert spans from a staging table, one row per key (otlp first, then
 * newest). The spans table has no key index, so a MERGE straight into it would read every column
 * of every stored row (~650 ms CPU at 3M spans, measured); instead the stored rows sharing a span
 * id with the batch are found by scanning that one column, copied out by rowid (DuckDB then skips
 * the row groups without them: a re-send's first copy is recent, so this reads little), merged with
 * the batch there, deleted, and the merged rows inserted back, in the caller's one transaction.
 */
export function spanUpsertStatements(table: TableDef<unknown>, stage: string): string[] {
  const cols = table.columns.map((c) => c.name).join(', ');
  const work = 'span_upsert';
  return [
    `CREATE OR REPLACE TEMP TABLE ${work}_rows AS SELECT rowid AS stored_rowid FROM ${table.name} WHERE span_id IN (SELECT span_id FROM ${stage})`,
    `CREATE OR REPLACE TEMP TABLE ${work} AS SELECT rowid AS stored_rowid, ${cols} FROM ${table.name} WHERE rowid IN (SELECT stored_rowid FROM ${work}_rows)`,
    spanMergeSql({ ...table, name: work }, stage),
    `DELETE FROM ${table.name} WHERE rowid IN (SELECT stored_rowid FROM ${work} WHERE stored_rowid IS NOT NULL)`,
    `INSERT INTO ${table.name} (${cols}) SELECT ${cols} FROM ${work}`,
    `DROP TABLE ${work}`,
    `DROP TABLE ${work}_rows`,
  ];
}

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
          THEN json_merge_patch(excluded.attributes, json_object('${TWIN_EVIDENCE_KEY}', json_extract(${table.name}.attributes, '$."${TWIN_EVIDENCE_KEY}"')))
        ELSE excluded.attributes END`;
    }
    return `${c} = CASE WHEN ${keepOld} THEN ${table.name}.${c} ELSE excluded.${c} END`;
  });
  return `MERGE INTO ${table.name}
    USING (SELECT ${cols.join(', ')} FROM ${stage}
      QUALIFY row_number() OVER (PARTITION BY ${table.primaryKey.join(', ')} ORDER BY (source = 'otlp') DESC, rowid DESC) = 1) AS excluded
    ON (${table.primaryKey.map((k) => `${table.name}.${k} = excluded.${k}`).join(' AND ')})
    WHEN MATCHED THEN UPDATE SET ${set.join(',\n      ')}
    WHEN NOT MATCHED THEN INSERT (${cols.join(', ')}) VALUES (${cols.map((c) => `excluded.${c}`).join(', ')})`;
}
