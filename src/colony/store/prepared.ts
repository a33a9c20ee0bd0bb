import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';

/**
 * Statements prepared once per connection and run many times. The writer's statements have the
 * same text batch after batch (see row-source.ts): preparing an insert into the spans table took as
 * much CPU as running it on 1,000 rows (measured, issue 16). DuckDB binds a prepared statement
 * again by itself when a table it reads changed since.
 */
export class PreparedStatements {
  private readonly byConnection = new WeakMap<DuckDBConnection, Map<string, Promise<DuckDBPreparedStatement>>>();

  /** Runs `sql`, a single statement, on `conn`. */
  async run(conn: DuckDBConnection, sql: string): Promise<void> {
    let statements = this.byConnection.get(conn);
    if (!statements) this.byConnection.set(conn, (statements = new Map()));
    let prepared = statements.get(sql);
    if (!prepared) {
      prepared = conn.prepare(sql);
      statements.set(sql, prepared);
      // A statement that could not be prepared is prepared again next time (and fails again, saying why).
      prepared.catch(() => statements.delete(sql));
    }
    await (await prepared).run();
  }
}
