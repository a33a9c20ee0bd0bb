import type { ChClient } from './client.js';
import { lit } from './sql.js';

/** How long a table's row count is trusted: a colony that is being written grows. */
const ROWS_TTL_MS = 30_000;

/**
 * Row counts of the exporter's tables (system.tables total_rows), each remembered for 30 s: some
 * reads take a different shape on a large table. A table whose size ClickHouse does not know
 * (Distributed) counts as large.
 */
export class TableRows {
  private readonly known = new Map<string, { n: number | null; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async atLeast(ch: ChClient, database: string, table: string, rows: number): Promise<boolean> {
    const key = `${database}.${table}`;
    let k = this.known.get(key);
    if (!k || this.now() - k.at > ROWS_TTL_MS) {
      const [r] = await ch.query<{ rows: string | null }>(`SELECT toString(total_rows) AS rows FROM system.tables WHERE database = ${lit(database)} AND name = ${lit(table)}`);
      k = { n: r?.rows == null ? null : Number(r.rows), at: this.now() };
      this.known.set(key, k);
    }
    return k.n === null || k.n >= rows;
  }
}
