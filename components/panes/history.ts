/** ↑/↓ through the question history (pure): `at` null is the draft. */
export function historyEntry(history: string[], at: number | null, delta: number): { at: number | null; text: string } {
  if (history.length === 0) return { at: null, text: '' };
  const next = at === null ? (delta < 0 ? history.length - 1 : null) : at + delta;
  if (next === null || next >= history.length) return { at: null, text: '' };
  const i = Math.max(0, next);
  return { at: i, text: history[i] };
}
