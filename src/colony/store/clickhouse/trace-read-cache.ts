import type { ChClient } from './client.js';
import { lit } from './sql.js';

/**
 * Below this many span rows (32 granules of the exporter's 8192), reading a trace touches every
 * granule anyway, and first asking the trace-id lookup table for the traces' time bounds costs more
 * than it can skip (measured on the largest demo scenario, 74k spans: ~10 ms of ~68 per trace read).
 */
export const BOUNDS_MIN_ROWS = 32 * 8192;
/** How long a table's row count is trusted: a colony that is being written grows. */
const ROWS_TTL_MS = 30_000;
/** Resource maps kept; past this the cache starts again (a colony has far fewer distinct resources). */
const MAX_RESOURCES = 4096;

/**
 * What trace reads of one store remember between calls. A resource map is found by the hash of its
 * own content, so a cached map is exactly what the resource table would answer.
 */
export class TraceReadCache {
  private readonly resources = new Map<string, Record<string, string>>();
  private rows: { n: number | null; at: number } | null = null;

  constructor(
    private readonly boundsMinRows = BOUNDS_MIN_ROWS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the trace-id lookup is worth its query: unknown sizes (Distributed tables) say yes. */
  async boundsPay(ch: ChClient, database: string, table: string): Promise<boolean> {
    if (!this.rows || this.now() - this.rows.at > ROWS_TTL_MS) {
      const [r] = await ch.query<{ rows: string | null }>(`SELECT toString(total_rows) AS rows FROM system.tables WHERE database = ${lit(database)} AND name = ${lit(table)}`);
      this.rows = { n: r?.rows == null ? null : Number(r.rows), at: this.now() };
    }
    return this.rows.n === null || this.rows.n >= this.boundsMinRows;
  }

  /** The cached maps of these hashes, and the hashes still to fetch. */
  cachedResources(hashes: readonly string[]): { found: Map<string, Record<string, string>>; missing: string[] } {
    const found = new Map<string, Record<string, string>>();
    const missing: string[] = [];
    for (const h of hashes) {
      const r = this.resources.get(h);
      if (r) found.set(h, r);
      else missing.push(h);
    }
    return { found, missing };
  }

  remember(found: ReadonlyMap<string, Record<string, string>>): void {
    for (const [h, r] of found) {
      if (this.resources.size >= MAX_RESOURCES) this.resources.clear();
      this.resources.set(h, r);
    }
  }
}
