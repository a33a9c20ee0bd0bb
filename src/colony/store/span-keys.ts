/**
 * Which (trace_id, span_id) keys the spans table may already hold (known by their span ids), so that the table needs no
 * primary-key index: at three million spans its ART index cost ~5 us of CPU per inserted span,
 * more than the rest of DuckDB's insert (measured, issue 16), and grows with the table.
 *
 * A Bloom filter over span ids: `admit` answers "certainly new" for a key never added (then the batch is a plain
 * append) and "maybe seen" for a key added before or, rarely, a false positive (then the batch
 * takes the exact upsert path). It never forgets a key, so a re-send is always upserted; only
 * keys written through the store writer, or present when the colony opened, are known.
 */

/**
 * The key words of every stored span: its span_id's 64 bits (span ids are random by the
 * specification; a re-send and an eBPF twin carry the same one). DuckDB's hex cast reads a
 * canonical id (16 lowercase hex digits) exactly as `spanKeyWords` does; what it makes of any
 * other id does not matter, as `spanKeyWords` maps every such id to the zero key, which the
 * filter always holds (see SpanKeyFilter). `where`: only the spans it selects.
 */
export function spanKeyWordsSql(table: string, where = ''): string {
  return `SELECT (v >> 32)::UINTEGER AS w0, (v & 4294967295)::UINTEGER AS w1
    FROM (SELECT COALESCE(TRY_CAST('0x' || span_id AS UBIGINT), 0) AS v FROM ${table}${where ? ` WHERE ${where}` : ''})`;
}

/** Per char code below 128: its value as a lowercase hex digit, or -1. */
const HEX_DIGIT = Int8Array.from({ length: 128 }, (_, c) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1));

/** The value of 8 lowercase hex digits at `from`, or -1 when they are not that. */
function hex8(s: string, from: number): number {
  let v = 0;
  for (let i = from; i < from + 8; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? HEX_DIGIT[c] : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** The two words spanKeyWordsSql computes, written to `out` (no allocation per span); all zero for a non-canonical id. */
export function spanKeyWords(spanId: string, out: Uint32Array): void {
  const hi = spanId.length === 16 ? hex8(spanId, 0) : -1;
  const lo = spanId.length === 16 ? hex8(spanId, 8) : -1;
  if (hi < 0 || lo < 0) {
    out[0] = 0;
    out[1] = 0;
    return;
  }
  out[0] = hi;
  out[1] = lo;
}

/** murmur3's finaliser: every input bit moves every output bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A key's two hashes (Bloom's `h1` and `h2`; the second odd). */
const hash1 = (hi: number, lo: number) => mix(hi ^ mix(lo ^ 0x9e3779b9));
const hash2 = (hi: number, lo: number) => mix(lo ^ mix(hi + 0x7f4a7c15)) | 1;

/**
 * Probes per key, all within one 512-bit block (one cache line): a probe anywhere in a filter of
 * tens of megabytes was a cache miss each, eight per span. With BITS_PER_KEY bits per key, a full
 * filter answers "maybe" for about one new key in a million (measured; with 32 bits, one in
 * 30,000: a group commit of 50,000 spans would then mostly take the slow path).
 * Memory: 8 to 16 bytes per stored span, e.g. 128 MiB for 10 million.
 */
const PROBES = 8;
const BLOCK_BITS = 512;
export const BITS_PER_KEY = 64;
const MIN_BITS = 1 << 22;
/** 256 MiB, 67 million keys: the probe arithmetic stays within 32 bits. */
const MAX_BITS = 2 ** 31;

/**
 * The next probe's bits, fresh for each: stepping by a fixed amount instead (double hashing) puts
 * all probes of some keys on one bit, within a 512-bit block (measured: 1e-4 false positives).
 */
function nextProbe(g: number): number {
  g ^= g >>> 15;
  g = Math.imul(g, 0x2c1b3c6d);
  return (g ^ (g >>> 12)) >>> 0;
}

class Bloom {
  readonly words: Uint32Array;
  readonly mask: number;
  readonly capacity: number;
  count = 0;

  constructor(bits: number) {
    this.words = new Uint32Array(bits >>> 5);
    this.mask = bits - 1;
    this.capacity = Math.floor(bits / BITS_PER_KEY);
  }

  /** `h1` picks the block, `h2` the bits in it, nine bits per probe. */
  has(h1: number, h2: number): boolean {
    const block = h1 & this.mask & ~(BLOCK_BITS - 1);
    let g = h2;
    for (let i = 0; i < PROBES; i++) {
      const bit = block + (g >>> 23);
      if ((this.words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
      g = nextProbe(g);
    }
    return true;
  }

  add(h1: number, h2: number): void {
    const block = h1 & this.mask & ~(BLOCK_BITS - 1);
    let g = h2;
    for (let i = 0; i < PROBES; i++) {
      const bit = block + (g >>> 23);
      this.words[bit >>> 5] |= 1 << (bit & 31);
      g = nextProbe(g);
    }
    this.count++;
  }
}

/** A power of two of at least MIN_BITS bits, BITS_PER_KEY per expected key. */
function bitsFor(keys: number): number {
  let bits = MIN_BITS;
  while (bits / BITS_PER_KEY < keys && bits < MAX_BITS) bits *= 2;
  return bits;
}

/**
 * A scalable Bloom filter: when the newest filter holds its capacity, a new one twice its size
 * takes the next keys, so the false-positive rate stays bounded as the table grows.
 */
export class SpanKeyFilter {
  private readonly blooms: Bloom[];
  private readonly words = new Uint32Array(2);

  constructor(expectedKeys = 0) {
    this.blooms = [new Bloom(bitsFor(expectedKeys))];
    // Every non-canonical id maps here: such spans always take the exact path.
    this.admitWords(0, 0);
  }

  /** Whether the key may have been added before, without adding it. */
  has(hi: number, lo: number): boolean {
    const h1 = hash1(hi, lo);
    const h2 = hash2(hi, lo);
    return this.blooms.some((b) => b.has(h1, h2));
  }

  /** Adds the key; returns whether it may have been added before (false: certainly new). */
  admitWords(hi: number, lo: number): boolean {
    const h1 = hash1(hi, lo);
    const h2 = hash2(hi, lo);
    let seen = false;
    for (const bloom of this.blooms) {
      if (bloom.has(h1, h2)) {
        seen = true;
        break;
      }
    }
    let newest = this.blooms[this.blooms.length - 1];
    if (newest.count >= newest.capacity) {
      newest = new Bloom(Math.min((newest.mask + 1) * 2, MAX_BITS));
      this.blooms.push(newest);
    }
    newest.add(h1, h2);
    return seen;
  }

  /** Adds the span's key; returns whether it may have been added before (false: certainly new). */
  admit(spanId: string): boolean {
    spanKeyWords(spanId, this.words);
    return this.admitWords(this.words[0], this.words[1]);
  }
}
