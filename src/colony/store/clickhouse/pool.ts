/**
 * Work spread over a few connections, each job on the connection with the fewest jobs running (the
 * first such one). An embedded ClickHouse connection runs one query at a time, while connections on
 * the same data directory run side by side: a tool that asks a dozen questions at once then waits
 * about as long as the longest of them, as it does over DuckDB or a server, not for their sum.
 */
export class Pool<C> {
  private readonly running: number[];

  constructor(private readonly conns: readonly C[]) {
    if (conns.length === 0) throw new Error('a pool needs at least one connection');
    this.running = conns.map(() => 0);
  }

  async run<R>(job: (conn: C) => Promise<R>): Promise<R> {
    const i = this.running.indexOf(Math.min(...this.running));
    this.running[i]++;
    try {
      return await job(this.conns[i]);
    } finally {
      this.running[i]--;
    }
  }

  /** Every connection, to close them. */
  all(): readonly C[] {
    return this.conns;
  }
}
