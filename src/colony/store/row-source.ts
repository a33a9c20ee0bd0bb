import { BIGINT, BOOLEAN, DOUBLE, type DuckDBConnection, DuckDBTableFunction, type DuckDBType, DuckDBVarCharType, INTEGER, VARCHAR } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import type { ColumnKind, TableDef } from './columns.js';
import type { ColumnarSegment } from './columnar.js';
import { type SegmentCursor, fillFromSegments } from './columnar-fill.js';

/** The table function that serves rows waiting to be stored: `SELECT * FROM coral_rows(id)`. */
export const ROW_SOURCE_FUNCTION = 'coral_rows';

const TYPES: Record<string, DuckDBType> = { VARCHAR, BIGINT, INTEGER, DOUBLE, BOOLEAN, JSON: DuckDBVarCharType.create('JSON') };

function duckdbType(sqlType: string): DuckDBType {
  const t = TYPES[sqlType];
  if (!t) throw new Error(`no DuckDB type for column type ${sqlType}`);
  return t;
}

interface Waiting {
  table: TableDef<unknown>;
  kinds: ColumnKind[];
  segments: readonly ColumnarSegment[];
  rows: number;
}

/**
 * Rows reach DuckDB through a table function (`INSERT INTO t SELECT * FROM coral_rows(id)`)
 * rather than an appender: the statement runs on a DuckDB thread, which calls back only to have
 * each chunk of up to 2048 rows filled from JS. With an appender the insertion itself (row storage,
 * primary-key index) ran synchronously on the JS thread; now the JS thread copies columnar
 * segments into vectors (columnar-fill.ts) and DuckDB does the rest beside it, on the other core.
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
        for (const c of w.table.columns) info.addResultColumn(c.name, duckdbType(c.sqlType));
        info.setBindData({ id });
        info.setCardinality(w.rows, true);
      },
      initFunction: (info) => {
        info.setMaxThreads(1);
        info.setInitData({ segment: 0, row: 0 } satisfies SegmentCursor);
      },
      mainFunction: (info, output) => {
        try {
          const w = this.waiting.get((info.bindData as { id: number }).id);
          if (!w) {
            output.rowCount = 0;
            return;
          }
          fillFromSegments(output, w.kinds, w.segments, info.initData as SegmentCursor, duckdb.vector_size());
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
  async serve(parts: readonly SegmentsFor[], use: (from: string[]) => Promise<unknown>): Promise<void> {
    const ids = parts.map((p) => {
      const id = this.nextId++;
      const rows = p.segments.reduce((n, s) => n + s.rows, 0);
      this.waiting.set(id, { table: p.table, kinds: p.table.columns.map((c) => c.kind), segments: p.segments, rows });
      return id;
    });
    try {
      await use(ids.map((id) => `${ROW_SOURCE_FUNCTION}(${id})`));
    } finally {
      for (const id of ids) this.waiting.delete(id);
    }
  }
}

/** Columnar rows bound for one table. */
export interface SegmentsFor {
  table: TableDef<unknown>;
  segments: readonly ColumnarSegment[];
}
