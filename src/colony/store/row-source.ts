import { BIGINT, BOOLEAN, DOUBLE, type DuckDBConnection, DuckDBTableFunction, type DuckDBType, DuckDBVarCharType, INTEGER, VARCHAR } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import type { TableDef } from './columns.js';
import type { ColumnarSegment } from './columnar.js';
import { type SegmentCursor, fillFromSegments } from './columnar-fill.js';

/** The table functions that serve rows waiting to be stored: `SELECT * FROM coral_rows_<table>_<n>()`. */
export const ROW_SOURCE_PREFIX = 'coral_rows';

const TYPES: Record<string, DuckDBType> = { VARCHAR, BIGINT, INTEGER, DOUBLE, BOOLEAN, JSON: DuckDBVarCharType.create('JSON') };

function duckdbType(sqlType: string): DuckDBType {
  const t = TYPES[sqlType];
  if (!t) throw new Error(`no DuckDB type for column type ${sqlType}`);
  return t;
}

/**
 * One table function serving one statement's rows at a time. Its name, and so the text of the
 * statement reading it, is the same from one batch to the next: the writer prepares that statement
 * once (parsing, binding and planning an insert into the 32-column spans table cost ~1 ms of CPU
 * each time, measured, issue 16), and each run reads whatever the slot serves when it starts.
 */
class Slot {
  serving: readonly ColumnarSegment[] | null = null;
  /** The table it serves rows of. */
  readonly table: string;
  readonly fn: DuckDBTableFunction;

  constructor(
    readonly name: string,
    table: TableDef<unknown>,
  ) {
    this.table = table.name;
    const kinds = table.columns.map((c) => c.kind);
    this.fn = DuckDBTableFunction.create({
      name,
      parameterTypes: [],
      // Bound when a statement is prepared, before any rows wait: only the columns are known.
      bindFunction: (info) => {
        for (const c of table.columns) info.addResultColumn(c.name, duckdbType(c.sqlType));
      },
      initFunction: (info) => {
        info.setMaxThreads(1);
        info.setInitData({ cursor: { segment: 0, row: 0 }, segments: this.serving ?? [] } satisfies Scan);
      },
      mainFunction: (info, output) => {
        try {
          const scan = info.initData as Scan;
          fillFromSegments(output, kinds, scan.segments, scan.cursor, duckdb.vector_size());
        } catch (err) {
          output.rowCount = 0;
          info.setError(`${name}: ${(err as Error).message}`);
        }
      },
    });
  }
}

interface Scan {
  cursor: SegmentCursor;
  segments: readonly ColumnarSegment[];
}

/**
 * Rows reach DuckDB through table functions (`INSERT INTO t SELECT * FROM coral_rows_t_0()`)
 * rather than an appender: the statement runs on a DuckDB thread, which calls back only to have
 * each chunk of up to 2048 rows filled from JS. With an appender the insertion itself (row storage,
 * primary-key index) ran synchronously on the JS thread; now the JS thread copies columnar
 * segments into vectors (columnar-fill.ts) and DuckDB does the rest beside it, on the other core.
 */
export class RowSource {
  private readonly slots = new Map<string, Slot[]>();
  /** Serves waiting for a slot of their table to come free. */
  private readonly waiting = new Map<string, (() => void)[]>();

  /**
   * Functions for `tables`, `concurrency` of them per table: as many statements reading one table's
   * rows as may run at once (a writer lane runs one at a time). They are made here, never while
   * rows are served: registering a function waits for the connection, which a statement in
   * progress holds while it waits for this thread to fill its rows.
   */
  constructor(tables: readonly TableDef<unknown>[], concurrency: number) {
    for (const table of tables) {
      this.slots.set(table.name, Array.from({ length: concurrency }, (_, k) => new Slot(`${ROW_SOURCE_PREFIX}_${table.name}_${k}`, table)));
    }
  }

  /** Makes the row functions available to statements on this connection. */
  register(conn: DuckDBConnection): void {
    for (const list of this.slots.values()) for (const s of list) conn.registerTableFunction(s.fn);
  }

  /**
   * Runs `use` with each part's rows readable as the SQL table expression at the same index of
   * `from` (columns in the table's stored order); the rows are released when it settles. A
   * statement reading them must start within `use`.
   */
  async serve(parts: readonly SegmentsFor[], use: (from: string[]) => Promise<unknown>): Promise<void> {
    const taken: Slot[] = [];
    try {
      for (const p of parts) {
        let slot: Slot | undefined;
        // Found free and taken in one synchronous step: another serve may look at the same moment.
        while (!(slot = this.freeSlot(p.table.name))) await new Promise<void>((resolve) => this.waitersOf(p.table.name).push(resolve));
        slot.serving = p.segments;
        taken.push(slot);
      }
      await use(taken.map((s) => `${s.name}()`));
    } finally {
      for (const s of taken) this.release(s);
    }
  }

  private freeSlot(table: string): Slot | undefined {
    const list = this.slots.get(table);
    if (!list) throw new Error(`no row source for table ${table}`);
    return list.find((s) => s.serving === null);
  }

  private release(slot: Slot): void {
    slot.serving = null;
    this.waitersOf(slot.table).shift()?.();
  }

  private waitersOf(table: string): (() => void)[] {
    let list = this.waiting.get(table);
    if (!list) this.waiting.set(table, (list = []));
    return list;
  }
}

/** Columnar rows bound for one table. */
export interface SegmentsFor {
  table: TableDef<unknown>;
  segments: readonly ColumnarSegment[];
}
