import type { DuckDBConnection } from '@duckdb/node-api';
import { KEY_WINDOW_NS, MAX_OPEN_KEYS } from './span-key-window.js';

/** Below this the window is not narrowed further: a burst that large is read whole. */
const MIN_WINDOW_NS = 10n * 1_000_000_000n;

export interface KeyFloor {
  /** Keys of spans that started at or after it are read at open. */
  floorNs: bigint;
  /** How many there are. */
  keys: number;
  /** The newest stored span's start. */
  newestNs: bigint;
}

/**
 * Which stored span keys the writer reads at open (span-key-window.ts): those of spans that started
 * within KEY_WINDOW_NS of the newest, the window halved while it holds more than MAX_OPEN_KEYS.
 * Each count filters on the raw start_ns, so DuckDB skips the older row groups by their zone maps.
 * Null for an empty table.
 */
export async function openKeyFloor(conn: DuckDBConnection, table: string, windowNs = KEY_WINDOW_NS, maxKeys = MAX_OPEN_KEYS): Promise<KeyFloor | null> {
  const [newest] = (await conn.runAndReadAll(`SELECT max(start_ns) FROM ${table}`)).getRows()[0] as [bigint | null];
  if (newest === null) return null;
  for (let window = windowNs; ; window /= 2n) {
    const floorNs = newest - window;
    const keys = Number((await conn.runAndReadAll(`SELECT count(*)::DOUBLE FROM ${table} WHERE start_ns >= ${floorNs}`)).getRows()[0][0]);
    if (keys <= maxKeys || window / 2n < MIN_WINDOW_NS) return { floorNs, keys, newestNs: newest };
  }
}
