import { editDistance } from '../../core/closest.js';

/**
 * Typo-tolerant matching of what a user typed against the names a colony knows (pure). Names are
 * compared as keys (lower case, letters and digits only), so spacing, hyphens and case never matter;
 * a trailing plural is forgiven; a typo is forgiven when the edit distance (a swap of neighbours is
 * one edit) is small for its length and the first letter agrees (people rarely mistype the first
 * letter, and it keeps "currently" from becoming "currency").
 */

/** Lower case, letters and digits only: "Product Catalog", "product-catalog" and "productcatalog" meet. */
export const nameKey = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Edits forgiven for a name of this length: none up to 4 letters, one up to 9, two beyond. */
export function allowedEdits(length: number): number {
  return length <= 4 ? 0 : length <= 9 ? 1 : 2;
}

/** Singular forms a typed word may stand for: "checkouts" -> "checkout", "caches" -> "cache", "ads" -> "ad". */
function singulars(key: string): string[] {
  const out = [key];
  if (key.endsWith('es') && key.length > 4) out.push(key.slice(0, -2));
  if (key.endsWith('s') && key.length > 2) out.push(key.slice(0, -1));
  return out;
}

export interface NameMatch {
  name: string;
  /** What the user typed for it. */
  typed: string;
  /** Spelt as the name is (case, spacing, hyphens and a plural aside). */
  exact: boolean;
  distance: number;
}

/**
 * The known name `typed` most likely means, or undefined. Exact keys win; otherwise the unique closest
 * name within the allowed edits for its length (a tie between two names is no match: guessing one of
 * them would be confidently wrong).
 */
export function matchName(typed: string, known: readonly string[]): NameMatch | undefined {
  const keys = singulars(nameKey(typed));
  if (keys[0] === '') return undefined;
  for (const k of keys) {
    const hit = known.find((n) => nameKey(n) === k);
    if (hit !== undefined) return { name: hit, typed, exact: true, distance: 0 };
  }
  let best: NameMatch | undefined;
  let tie = false;
  for (const n of known) {
    const nk = nameKey(n);
    const limit = allowedEdits(nk.length);
    if (limit === 0) continue;
    for (const k of keys) {
      if (k[0] !== nk[0] || Math.abs(k.length - nk.length) > limit) continue;
      const d = editDistance(k, nk, { swaps: true });
      if (d > limit) continue;
      if (!best || d < best.distance) {
        best = { name: n, typed, exact: false, distance: d };
        tie = false;
      } else if (d === best.distance && best.name !== n) tie = true;
    }
  }
  return tie ? undefined : best;
}
