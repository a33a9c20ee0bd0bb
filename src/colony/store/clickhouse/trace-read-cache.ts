import type { ChClient } from './client.js';
import { TableRows } from './table-rows.js';

/**
 * Below this many span rows (32 granules of the exporter's 8192), reading a trace touches every
 * granule anyway, and first asking the trace-id lookup table for the traces' time bounds costs more
 * than it can skip (measured on the largest demo scenario, 74k spans: ~10 ms of ~68 per trace read).
 */
export const BOUNDS_MIN_ROWS = 32 * 8192;
/** Resource maps kept; past this the cache starts again (a colony has far fewer distinct resources). */
const MAX_RESOURCES = 4096;

/**
 * What trace reads of one store remember between calls. A resource map is found by the hash of its
 * own content, so a cached map is exactly what the resource table would answer.
 */
export class TraceReadCache {
  private readonly resources = new Map<string, Record<string, string>>();

  constructor(
    private readonly boundsMinRows = BOUNDS_MIN_ROWS,
    private readonly rows = new TableRows(),
  ) {}

  /** Whether the trace-id lookup is worth its query: unknown sizes (Distributed tables) say yes. */
  boundsPay(ch: ChClient, database: string, table: string): Promise<boolean> {
    return this.rows.atLeast(ch, database, table, this.boundsMinRows);
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
