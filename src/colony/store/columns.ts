import { type DuckDBAppender, DOUBLE, LIST, UBIGINT, listValue } from '@duckdb/node-api';

/**
 * One table definition drives both the DDL and the appender, so the column order used for
 * bulk ingest can never drift from the schema.
 */
export interface Column<R> {
  name: string;
  sqlType: string;
  append: (a: DuckDBAppender, row: R) => void;
}

type Get<R, T> = (row: R) => T | null;

export function varchar<R>(name: string, get: Get<R, string>, sqlType = 'VARCHAR'): Column<R> {
  return {
    name,
    sqlType,
    append: (a, r) => {
      const v = get(r);
      if (v === null) a.appendNull();
      else a.appendVarchar(v);
    },
  };
}

export function json<R>(name: string, get: Get<R, string>): Column<R> {
  return varchar(name, get, 'JSON');
}

export function bigint<R>(name: string, get: Get<R, bigint>): Column<R> {
  return {
    name,
    sqlType: 'BIGINT',
    append: (a, r) => {
      const v = get(r);
      if (v === null) a.appendNull();
      else a.appendBigInt(v);
    },
  };
}

export function integer<R>(name: string, get: Get<R, number>): Column<R> {
  return {
    name,
    sqlType: 'INTEGER',
    append: (a, r) => {
      const v = get(r);
      if (v === null) a.appendNull();
      else a.appendInteger(v);
    },
  };
}

export function double<R>(name: string, get: Get<R, number>): Column<R> {
  return {
    name,
    sqlType: 'DOUBLE',
    append: (a, r) => {
      const v = get(r);
      if (v === null) a.appendNull();
      else a.appendDouble(v);
    },
  };
}

export function boolean<R>(name: string, get: Get<R, boolean>): Column<R> {
  return {
    name,
    sqlType: 'BOOLEAN',
    append: (a, r) => {
      const v = get(r);
      if (v === null) a.appendNull();
      else a.appendBoolean(v);
    },
  };
}

const DOUBLE_LIST = LIST(DOUBLE);
const UBIGINT_LIST = LIST(UBIGINT);

export function doubleList<R>(name: string, get: (row: R) => number[]): Column<R> {
  return { name, sqlType: 'DOUBLE[]', append: (a, r) => a.appendList(listValue(get(r)), DOUBLE_LIST) };
}

export function countList<R>(name: string, get: (row: R) => number[]): Column<R> {
  return {
    name,
    sqlType: 'UBIGINT[]',
    append: (a, r) => a.appendList(listValue(get(r).map((c) => BigInt(c))), UBIGINT_LIST),
  };
}

export interface TableDef<R> {
  name: string;
  columns: Column<R>[];
  primaryKey: string[];
}

export function createTableSql<R>(t: TableDef<R>): string {
  const cols = t.columns.map((c) => `  ${c.name} ${c.sqlType}`).join(',\n');
  return `CREATE TABLE IF NOT EXISTS ${t.name} (\n${cols},\n  PRIMARY KEY (${t.primaryKey.join(', ')})\n)`;
}
