import { type DuckDBConnection, type DuckDBMaterializedResult, type DuckDBValue, JSDuckDBValueConverter } from '@duckdb/node-api';
import { CoralError } from '../../core/errors.js';

/**
 * A read that ran past its time is interrupted; one whose answer is too large is refused before it
 * becomes JS objects. Both are answers to the caller's question, not faults of the colony.
 */
export class QueryLimitError extends CoralError {
  override name = 'QueryLimitError';
}

export interface ReadLimits {
  /** A read still running after this long is interrupted (DuckDB's interrupt). */
  timeoutMs: number;
  /** A result with more rows is refused: turned into JS objects it would cost ~1 KB a row. */
  maxRows: number;
}

/** 30 s: the slowest porcelain tool at 1M spans takes ~1 s on a busy 2-core machine. */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;
/** Far above any tool's answer (a 10,000-span trace, a sample of call spans). */
export const DEFAULT_MAX_RESULT_ROWS = 1_000_000;
/** Rows turned into objects between two yields to the event loop, which receives exports meanwhile. */
const ROWS_PER_SLICE = 8192;
/** How often closing interrupts the reads still running. */
const INTERRUPT_AGAIN_MS = 20;

/**
 * Read connections handed out one query at a time, the rest queued here in order. Every statement
 * of @duckdb/node-api runs on a libuv pool thread (4 by default) for as long as it runs: reads spread
 * round-robin over the connections, as many at once as the tools asked, competed with ingest for
 * those threads and the two cores (issue 31: OTLP export P50 from ~25 ms to ~7 s under 8 MCP
 * clients, measured ~0.2-0.5 s with this pool and the tool gate on a machine at load 14).
 */
interface Waiter {
  resolve: (conn: DuckDBConnection) => void;
  reject: (err: Error) => void;
}

export class ReadPool {
  private readonly idle: DuckDBConnection[];
  private readonly waiting: Waiter[] = [];
  /** Connections running a read now. */
  private readonly busy = new Set<DuckDBConnection>();
  private closing = false;
  private drained: (() => void) | null = null;

  constructor(
    connections: DuckDBConnection[],
    private readonly limits: ReadLimits = { timeoutMs: DEFAULT_READ_TIMEOUT_MS, maxRows: DEFAULT_MAX_RESULT_ROWS },
  ) {
    this.idle = [...connections];
  }

  /** Queries waiting for a connection (for tests and reports). */
  get queued(): number {
    return this.waiting.length;
  }

  async query<T>(sql: string, params: Record<string, DuckDBValue>): Promise<T[]> {
    const conn = await this.acquire();
    try {
      if (this.closing) throw closingError();
      const result = await this.runLimited(conn, sql, params);
      if (result.rowCount > this.limits.maxRows) {
        throw new QueryLimitError(`The query's answer has ${result.rowCount} rows, more than the ${this.limits.maxRows} a read may return.`, 'Narrow it: a shorter time range, a service, or a lower limit.');
      }
      return (await rowObjects(result)) as T[];
    } finally {
      this.release(conn);
    }
  }

  /**
   * Stops the reads running (DuckDB's interrupt), refuses the ones waiting and any new one, and
   * resolves once none runs: the connections may then be closed. Closed under a running statement, a
   * DuckDB connection can abort the whole process (a pthread mutex assertion, seen when a console
   * closed while its first look still read).
   */
  async close(): Promise<void> {
    this.closing = true;
    for (const w of this.waiting.splice(0)) w.reject(closingError());
    while (this.busy.size > 0) {
      // Again until they end: an interrupt that comes before its statement has begun is not kept.
      for (const conn of this.busy) conn.interrupt();
      await new Promise<void>((r) => {
        this.drained = r;
        setTimeout(r, INTERRUPT_AGAIN_MS).unref();
      });
    }
  }

  private async runLimited(conn: DuckDBConnection, sql: string, params: Record<string, DuckDBValue>): Promise<DuckDBMaterializedResult> {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      conn.interrupt();
    }, this.limits.timeoutMs);
    try {
      return await conn.run(sql, params);
    } catch (err) {
      if (timedOut) throw new QueryLimitError(`The query ran longer than ${this.limits.timeoutMs / 1000} s and was stopped.`, 'Narrow it: a shorter time range, a service, or a lower limit.');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A connection, counted busy from now until released (handed to the next waiter, it stays busy). */
  private acquire(): Promise<DuckDBConnection> {
    if (this.closing) return Promise.reject(closingError());
    const conn = this.idle.pop();
    if (conn) {
      this.busy.add(conn);
      return Promise.resolve(conn);
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(conn: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) {
      next.resolve(conn);
      return;
    }
    this.busy.delete(conn);
    this.idle.push(conn);
    if (this.busy.size === 0) this.drained?.();
  }
}

function closingError(): CoralError {
  return new CoralError('The colony is closing: the read was not run.');
}

/**
 * The rows as JS objects, as DuckDB's getRowObjectsJS makes them, a slice at a time: a large answer
 * made in one go holds the event loop for its whole length, and the exports arriving meanwhile wait.
 */
async function rowObjects(result: DuckDBMaterializedResult): Promise<Record<string, unknown>[]> {
  const names = result.deduplicatedColumnNames();
  const rows: Record<string, unknown>[] = [];
  let sinceYield = 0;
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    for (let r = 0; r < chunk.rowCount; r++) {
      const row: Record<string, unknown> = {};
      chunk.visitRowValues(r, (value, _row, column, type) => {
        row[names[column]] = JSDuckDBValueConverter(value, type, JSDuckDBValueConverter);
      });
      rows.push(row);
    }
    sinceYield += chunk.rowCount;
    if (sinceYield >= ROWS_PER_SLICE && c + 1 < result.chunkCount) {
      sinceYield = 0;
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  return rows;
}
