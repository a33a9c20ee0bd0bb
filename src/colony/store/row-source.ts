import { BIGINT, BOOLEAN, DOUBLE, type DuckDBConnection, DuckDBTableFunction, type DuckDBType, DuckDBVarCharType, INTEGER, VARCHAR } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { fillChunk } from './chunk-append.js';
import type { TableDef } from './columns.js';

/** The table function that serves rows waiting to be stored: `SELECT * FROM coral_rows(id)`. */
export const ROW_SOURCE_FUNCTION = 'coral_rows';

const TYPES: Record<string, DuckDBType> = { VARCHAR, BIGINT, INTEGER, DOUBLE, BOOLEAN, JSON: DuckDBVarCharType.create('JSON') };

function duckdbType(sqlType: string): DuckDBType {
  const t = TYPES[sqlType];
  if (!t) throw new Error(`no DuckDB type for column type ${sqlType}`);
  return t;
}

type Waiting = Pick<TableDef<unknown>, 'columns'> & { rows: readonly unknown[] };

interface Cursor {
  at: number;
}

/**
 * Rows reach DuckDB through a table function (`INSERT INTO t SELECT * FROM coral_rows(id)`)
 * rather than an appender: the statement runs on a DuckDB thread, which calls back only to have
 * each chunk of 2048 rows filled from JS. With an appender the insertion itself (row storage,
 * primary-key index) ran synchronously on the JS thread, which also decodes every export; now the
 * JS thread fills vectors and DuckDB does the rest beside it, on the other core.
 */
export class RowSource {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private readonly fn: DuckDBTableFunction;

  constructor() {
    this.fn = DuckDBTableFunction.create({
      name: ROW_SOURCE_FUNCTION,
      parameterTypes: [BIGINT],
      bindFunction: (info) => {
        const id = Number(info.getParameter(0));
        const w = this.waiting.get(id);
        if (!w) {
          info.setError(`${ROW_SOURCE_FUNCTION}(${id}): no rows are waiting under this id`);
          return;
        }
        for (const c of w.columns) info.addResultColumn(c.name, duckdbType(c.sqlType));
        info.setBindData({ id });
        info.setCardinality(w.rows.length, true);
      },
      initFunction: (info) => {
        info.setMaxThreads(1);
        info.setInitData({ at: 0 } satisfies Cursor);
      },
      mainFunction: (info, output) => {
        try {
          const w = this.waiting.get((info.bindData as { id: number }).id);
          const cursor = info.initData as Cursor;
          const count = w ? Math.min(duckdb.vector_size(), w.rows.length - cursor.at) : 0;
          if (!w || count <= 0) {
            output.rowCount = 0;
            return;
          }
          fillChunk(output, w.columns, w.rows, cursor.at, count);
          cursor.at += count;
        } catch (err) {
          output.rowCount = 0;
          info.setError(`${ROW_SOURCE_FUNCTION}: ${(err as Error).message}`);
        }
      },
    });
  }

  /** Makes `coral_rows` available to statements on this connection. */
  register(conn: DuckDBConnection): void {
    conn.registerTableFunction(this.fn);
  }

  /**
   * Runs `use` with each part's rows readable as the SQL table expression at the same index of
   * `from` (columns in the table's stored order); the rows are released when it settles.
   */
  async serve(parts: readonly RowsFor[], use: (from: string[]) => Promise<unknown>): Promise<void> {
    const ids = parts.map((p) => {
      const id = this.nextId++;
      this.waiting.set(id, { columns: p.table.columns, rows: p.rows });
      return id;
    });
    try {
      await use(ids.map((id) => `${ROW_SOURCE_FUNCTION}(${id})`));
    } finally {
      for (const id of ids) this.waiting.delete(id);
    }
  }
}

/** Rows bound for one table. */
export interface RowsFor {
  table: TableDef<unknown>;
  rows: readonly unknown[];
}

export function rowsFor<R>(table: TableDef<R>, rows: readonly R[]): RowsFor {
  // The pairing is what makes this erasure safe: the table's getters only ever see its own rows.
  return { table: table as unknown as TableDef<unknown>, rows };
}
