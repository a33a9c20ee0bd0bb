/**
 * The span keys the writer remembers, bounded in time and in memory (issue 33). Reading every stored
 * span id when a colony opened for writing cost ~0.8 s of CPU per million spans, at every open, and
 * the filter grew 8-16 bytes per span for as long as `colony serve` ran. Duplicates come close
 * together in time: an exporter's retries (the Collector gives up after 5 minutes), a re-send after a
 * restart, an eBPF twin seconds after its SDK span. So only the keys of spans that started within
 * KEY_WINDOW_NS of the newest stored one are read at open, and while writing, keys live in two
 * generations of GENERATION_KEYS each, the older dropped when the newer is full.
 *
 * What is not remembered is not assumed new: `floorNs` is the start time before which a stored span
 * may have a key the filter does not hold, and a batch with a span starting before it takes the exact
 * upsert path (writer.ts). Late or back-filled spans cost that path; nothing is ever stored twice.
 */
import { SpanKeyFilter } from './span-keys.js';

/** Keys of spans that started this long before the newest stored one are read at open. */
export const KEY_WINDOW_NS = 15n * 60n * 1_000_000_000n;
/** At most about this many keys are read at open: the window is halved until it holds no more (~0.5 s of reading). */
export const MAX_OPEN_KEYS = 600_000;
/** Keys per generation; two are kept, so at most ~2x this many are remembered (~32 MiB each). */
export const GENERATION_KEYS = 4_000_000;

interface Generation {
  filter: SpanKeyFilter;
  keys: number;
  /** The latest start among its spans (null: none known). */
  newestNs: bigint | null;
}

/** The start times a batch's spans span (null when it has no spans). */
export interface SpanTimes {
  oldestNs: bigint;
  newestNs: bigint;
}

const later = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null ? a : a > b ? a : b);

export class RecentSpanKeys {
  private readonly generations: Generation[];

  /**
   * `floorNs`: spans that started before it may be stored with keys not added here (null: every
   * stored key will be added). `expectedKeys` sizes the first generation.
   */
  constructor(
    private floor: bigint | null,
    expectedKeys = 0,
    private readonly generationKeys = GENERATION_KEYS,
  ) {
    this.generations = [{ filter: new SpanKeyFilter(Math.min(expectedKeys, generationKeys)), keys: 0, newestNs: null }];
  }

  get floorNs(): bigint | null {
    return this.floor;
  }

  /** Keys remembered now (both generations). */
  get size(): number {
    return this.generations.reduce((n, g) => n + g.keys, 0);
  }

  /** Adds one stored key (the read at open); `storedUpTo` then says how new they are. */
  addStored(hi: number, lo: number): void {
    const g = this.current();
    g.filter.admitWords(hi, lo);
    g.keys++;
  }

  /** The keys added by `addStored` are of spans that started at or before `newestNs`. */
  storedUpTo(newestNs: bigint): void {
    for (const g of this.generations) g.newestNs = later(g.newestNs, newestNs);
  }

  /**
   * Adds a batch's keys (two words per span, as spanKeyWords writes them); returns whether it may hold
   * a stored key: one the filter may have seen, a repeat within the batch, or a span older than the floor.
   */
  admitBatch(words: readonly Uint32Array[], times: SpanTimes | null): boolean {
    let seen = times !== null && this.floor !== null && times.oldestNs < this.floor;
    let last: Generation | null = null;
    for (const w of words) {
      const n = w.length >>> 1;
      // Looked up in every generation, added to the current one.
      for (let i = 0; i < n; i++) {
        const g = this.current();
        if (g !== last) {
          // Each generation the batch's keys go to knows how new they may be.
          g.newestNs = later(g.newestNs, times?.newestNs ?? null);
          last = g;
        }
        if (this.maybeSeen(w[2 * i], w[2 * i + 1], g)) seen = true;
        g.keys++;
      }
    }
    return seen;
  }

  /** Whether an older generation may hold the key; adds it to `g` (whose own answer counts too). */
  private maybeSeen(hi: number, lo: number, g: Generation): boolean {
    let seen = false;
    for (const o of this.generations) if (o !== g && o.filter.has(hi, lo)) seen = true;
    return g.filter.admitWords(hi, lo) || seen;
  }

  /** The generation taking new keys: a fresh one once it is full, the oldest then forgotten and the floor raised past it. */
  private current(): Generation {
    const g = this.generations[this.generations.length - 1];
    if (g.keys < this.generationKeys) return g;
    const next: Generation = { filter: new SpanKeyFilter(this.generationKeys), keys: 0, newestNs: null };
    this.generations.push(next);
    if (this.generations.length > 2) {
      const dropped = this.generations.shift() as Generation;
      // Every span it held started at or before its newest: unknown from now on, so exact-path.
      if (dropped.newestNs !== null) this.floor = later(this.floor, dropped.newestNs + 1n);
    }
    return next;
  }
}
