/**
 * A faithful port of Python's difflib.SequenceMatcher (isjunk=None, autojunk=True) and the column
 * search scoring of the Honeycomb analysis-tools specification. Faithful to the last digit: the
 * specification's scores are defined by Python, so ties and thresholds must fall where Python's do.
 * Strings are compared by code point, as Python iterates them.
 */
interface Block {
  a: number;
  b: number;
  size: number;
}

export class SequenceMatcher {
  private readonly a: number[];
  private readonly b: number[];
  private readonly b2j = new Map<number, number[]>();
  /** j2len of difflib, as two reusable arrays indexed by j + 1 (0 stands for j = -1). */
  private prev: Int32Array;
  private next: Int32Array;

  constructor(a: string, b: string) {
    this.a = codePoints(a);
    this.b = codePoints(b);
    // difflib indexes every element of b, but only a's elements are ever looked up: indexing just
    // those gives the same lists (and the same popularity counts) for a fraction of the work.
    const wanted = new Set(this.a);
    this.b.forEach((ch, j) => {
      if (!wanted.has(ch)) return;
      const list = this.b2j.get(ch);
      if (list) list.push(j);
      else this.b2j.set(ch, [j]);
    });
    // autojunk: in sequences of 200+ elements, elements occurring more than 1% (+1) are "popular"
    // and dropped from the index. They are not junk: matches may still extend through them.
    const n = this.b.length;
    if (n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [ch, idxs] of [...this.b2j]) if (idxs.length > ntest) this.b2j.delete(ch);
    }
    // Scratch arrays shared by every matcher (JS is single-threaded): kept all-zero between uses.
    if (scratch[0].length < n + 1) scratch = [new Int32Array(2 * n + 2), new Int32Array(2 * n + 2)];
    this.prev = scratch[0];
    this.next = scratch[1];
  }

  /** Longest matching block in a[alo:ahi] and b[blo:bhi], leftmost-longest as difflib breaks ties. */
  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): Block {
    const { a, b } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let prev = this.prev;
    let next = this.next;
    let prevTouched: number[] = [];
    for (let i = alo; i < ahi; i++) {
      const touched: number[] = [];
      for (const j of this.b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = prev[j] + 1;
        next[j + 1] = k;
        touched.push(j + 1);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      for (const t of prevTouched) prev[t] = 0;
      [prev, next] = [next, prev];
      prevTouched = touched;
    }
    for (const t of prevTouched) prev[t] = 0;
    this.prev = prev;
    this.next = next;
    scratch = [prev, next];
    // With no junk set, difflib's extension loops reduce to extending over equal elements.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return { a: besti, b: bestj, size: bestsize };
  }

  /** Total size of the matching blocks (what ratio() needs; block order does not change the sum). */
  matches(): number {
    let total = 0;
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
      const { a: i, b: j, size: k } = this.findLongestMatch(alo, ahi, blo, bhi);
      if (k === 0) continue;
      total += k;
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
    return total;
  }

  ratio(): number {
    const length = this.a.length + this.b.length;
    // Same operation order as difflib's _calculate_ratio: (2.0 * matches) / length.
    return length === 0 ? 1.0 : (2.0 * this.matches()) / length;
  }
}

let scratch: [Int32Array, Int32Array] = [new Int32Array(256), new Int32Array(256)];

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}

/** The specification's threshold: a column is a match when its score is above it (`score > 0.3`). */
export const MIN_SCORE = 0.3;

/** Whether a score makes a match: strictly above MIN_SCORE, as the specification's `if score > 0.3`. */
export const isMatch = (score: number): boolean => score > MIN_SCORE;

/**
 * Exact 1.0, prefix 0.9, substring 0.8, else SequenceMatcher(None, query, column).ratio() * 0.7,
 * both lowercased. The caller keeps the scores isMatch accepts.
 */
export function columnScore(query: string, column: string): number {
  const q = query.toLowerCase();
  const c = column.toLowerCase();
  if (c === q) return 1.0;
  if (c.startsWith(q)) return 0.9;
  if (c.includes(q)) return 0.8;
  return new SequenceMatcher(q, c).ratio() * 0.7;
}

/**
 * columnScore when it is a match (above MIN_SCORE), else null. Equal to columnScore wherever it returns a
 * number; the quick_ratio bound only skips work whose result would be dropped anyway.
 */
export function matchScore(queryLower: string, column: string, query: QueryCounts = queryCounts(queryLower)): number | null {
  const c = column.toLowerCase();
  if (c === queryLower) return 1.0;
  if (c.startsWith(queryLower)) return 0.9;
  if (c.includes(queryLower)) return 0.8;
  if (!isMatch(query.upperBound(c) * 0.7)) return null;
  const score = new SequenceMatcher(queryLower, c).ratio() * 0.7;
  return isMatch(score) ? score : null;
}

/** The query's characters counted once, for a fast quick_ratio against many columns. */
export interface QueryCounts {
  /** An upper bound on ratio(query, column): difflib's quick_ratio. */
  upperBound(column: string): number;
}

export function queryCounts(queryLower: string): QueryCounts {
  const chars = Array.from(queryLower);
  const la = chars.length;
  const ascii = new Int32Array(128);
  const other = new Map<string, number>();
  for (const ch of chars) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code < 128) ascii[code]++;
    else other.set(ch, (other.get(ch) ?? 0) + 1);
  }
  const left = new Int32Array(128);
  return {
    upperBound(column: string): number {
      const lb = column.length;
      if (la + lb === 0) return 1.0;
      left.set(ascii);
      const rest = other.size > 0 ? new Map(other) : other;
      let matches = 0;
      let points = 0;
      for (const ch of column) {
        points++;
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code < 128) {
          if (left[code] > 0) {
            left[code]--;
            matches++;
          }
        } else {
          const n = rest.get(ch) ?? 0;
          if (n > 0) {
            rest.set(ch, n - 1);
            matches++;
          }
        }
      }
      return (2.0 * matches) / (la + points);
    },
  };
}
