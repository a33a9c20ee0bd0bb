/** Closest known names to a misspelt one: service names, tool arguments, commands. */

/**
 * Edits (insert, delete, replace one character) from `a` to `b`, case ignored. With `swaps`, a swap of
 * two neighbours is one edit too (optimal string alignment: "paymnet" is one edit from "payment").
 */
export function editDistance(a: string, b: string, o: { swaps?: boolean } = {}): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let before: number[] = [];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (o.swaps && i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[y.length];
}

/**
 * Known names, the likeliest meant by `asked` first: those containing it or contained in it (a
 * shortened or prefixed name), then by edit distance; ties by name.
 */
export function closestNames(asked: string, known: readonly string[]): string[] {
  const a = asked.toLowerCase();
  const rank = new Map(known.map((k) => {
    const l = k.toLowerCase();
    return [k, (l.includes(a) || a.includes(l) ? 0 : 1_000) + editDistance(a, l)] as const;
  }));
  return [...known].sort((p, q) => (rank.get(p) ?? 0) - (rank.get(q) ?? 0) || p.localeCompare(q));
}

/** The name `asked` most likely meant, if one is close enough to suggest (a typo, not a different word). */
export function likelyMeant(asked: string, known: readonly string[]): string | undefined {
  const best = closestNames(asked, known)[0];
  if (best === undefined) return undefined;
  const a = asked.toLowerCase();
  const b = best.toLowerCase();
  if (Math.min(a.length, b.length) >= 3 && (b.includes(a) || a.includes(b))) return best;
  return editDistance(a, b) <= Math.floor(Math.max(a.length, b.length) / 3) ? best : undefined;
}
