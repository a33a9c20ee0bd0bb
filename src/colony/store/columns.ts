/**
 * One table definition drives both the DDL and the appender, so the column order used for
 * bulk ingest can never drift from the schema. Each column says how its values are laid out in a
 * DuckDB vector (`kind`) and reads its value from a row (`get`, null for SQL NULL): the columnar
 * encoder lays whole column vectors out from these (see columnar.ts).
 */
export type Column<R> =
  | { name: string; sqlType: string; kind: 'varchar'; get: (row: R) => string | null }
  | { name: string; sqlType: string; kind: 'bigint'; get: (row: R) => bigint | null }
  | { name: string; sqlType: string; kind: 'integer'; get: (row: R) => number | null }
  | { name: string; sqlType: string; kind: 'double'; get: (row: R) => number | null }
  | { name: string; sqlType: string; kind: 'boolean'; get: (row: R) => boolean | null };

export type ColumnKind = Column<unknown>['kind'];

type Get<R, T> = (row: R) => T | null;

export function varchar<R>(name: string, get: Get<R, string>, sqlType = 'VARCHAR'): Column<R> {
  return { name, sqlType, kind: 'varchar', get };
}

export function json<R>(name: string, get: Get<R, string>): Column<R> {
  return varchar(name, get, 'JSON');
}

export function bigint<R>(name: string, get: Get<R, bigint>): Column<R> {
  return { name, sqlType: 'BIGINT', kind: 'bigint', get };
}

export function integer<R>(name: string, get: Get<R, number>): Column<R> {
  return { name, sqlType: 'INTEGER', kind: 'integer', get };
}

export function double<R>(name: string, get: Get<R, number>): Column<R> {
  return { name, sqlType: 'DOUBLE', kind: 'double', get };
}

export function boolean<R>(name: string, get: Get<R, boolean>): Column<R> {
  return { name, sqlType: 'BOOLEAN', kind: 'boolean', get };
}

/**
 * A number array kept as JSON text. The appender's typed lists cost ~40 us per row (measured) against
 * ~2 us for text, and the queries only ever decode the few points they select.
 */
export function numberArray<R>(name: string, get: (row: R) => number[]): Column<R> {
  return json(name, (r) => JSON.stringify(get(r)));
}

/** A column's name and SQL type, as DuckDB lists it (duckdb_columns). */
export interface ColumnShape {
  name: string;
  sqlType: string;
}

/** A column DuckDB computes when read: nothing to append, nothing stored. */
export interface VirtualColumn {
  name: string;
  sqlType: string;
  expression: string;
}

export interface TableDef<R> {
  name: string;
  /** Stored columns, in append order. */
  columns: Column<R>[];
  virtualColumns?: VirtualColumn[];
  /** What identifies a row: a re-sent row with the same key replaces the stored one. */
  primaryKey: string[];
  /**
   * False: the key is not declared to DuckDB (no index to maintain on insert); the writer keeps it
   * unique itself (see span-keys.ts).
   */
  keyIndex?: boolean;
}

function columnList<R>(t: TableDef<R>): string[] {
  return [
    ...t.columns.map((c) => `  ${c.name} ${c.sqlType}`),
    ...(t.virtualColumns ?? []).map((v) => `  ${v.name} ${v.sqlType} GENERATED ALWAYS AS (${v.expression}) VIRTUAL`),
  ];
}

export function createTableSql<R>(t: TableDef<R>): string {
  const key = t.keyIndex === false ? [] : [`  PRIMARY KEY (${t.primaryKey.join(', ')})`];
  return `CREATE TABLE IF NOT EXISTS ${t.name} (\n${[...columnList(t), ...key].join(',\n')}\n)`;
}

/** A staging table for the upsert path: the stored columns only, no key. */
export function createStageSql<R>(t: TableDef<R>, stageName: string): string {
  return `CREATE OR REPLACE TEMP TABLE ${stageName} (\n${t.columns.map((c) => `  ${c.name} ${c.sqlType}`).join(',\n')}\n)`;
}

export function storedColumnNames<R>(t: TableDef<R>): string {
  return t.columns.map((c) => c.name).join(', ');
}
