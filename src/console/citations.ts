/**
 * Citations as the session numbers them. A model (or a recording, or the triage) cites the tool
 * calls of its turn as [1], [2], ...; the console numbers every call of the session in the order
 * they start, so the answer is rewritten to those numbers, which the tool-call pane and the export
 * show. Pure.
 */
export function renumberCitations(text: string, sessionNumbers: readonly number[]): string {
  const map = (k: number) => (k >= 1 && k <= sessionNumbers.length ? sessionNumbers[k - 1] : k);
  // [3], [1, 2], [1-3] and [1–3]: each number inside the brackets is mapped; a range keeps its ends.
  return text.replace(/\[(\d+(?:\s*(?:,|-|–)\s*\d+)*)\]/g, (_all, inner: string) => `[${inner.replace(/\d+/g, (d) => String(map(Number(d))))}]`);
}
