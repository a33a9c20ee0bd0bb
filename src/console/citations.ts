/** A citation: [3], [1, 2], [1-3] and [1–3]; group 1 is what the brackets hold. */
const CITATION = /\[(\d+(?:\s*(?:,|-|–)\s*\d+)*)\]/g;

/**
 * Citations as the session numbers them. A model (or a recording, or the triage) cites the tool
 * calls of its turn as [1], [2], ...; the console numbers every call of the session in the order
 * they start, so the answer is rewritten to those numbers, which the tool-call pane and the export
 * show. Pure.
 */
export function renumberCitations(text: string, sessionNumbers: readonly number[]): string {
  const map = (k: number) => (k >= 1 && k <= sessionNumbers.length ? sessionNumbers[k - 1] : k);
  // Each number inside the brackets is mapped; a range keeps its ends.
  return text.replace(CITATION, (_all, inner: string) => `[${inner.replace(/\d+/g, (d) => String(map(Number(d))))}]`);
}

/** The call numbers a text cites, ranges spelled out (at most 100 from a range's start). */
export function citedNumbers(text: string): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(CITATION)) {
    for (const part of m[1].split(',')) {
      const [a, b] = part.split(/-|–/).map((x) => Number(x.trim()));
      for (let k = a; k <= (b ?? a) && k - a < 100; k++) out.add(k);
    }
  }
  return out;
}
