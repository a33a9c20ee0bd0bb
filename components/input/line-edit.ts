import { graphemes, width } from '../text/width.js';

/** A one-line editor's state and key handling (pure): what LineInput runs on every key. */
export interface LineEdit {
  value: string;
  /** In UTF-16 units, always on a grapheme boundary. */
  cursor: number;
}

export interface EditKey {
  leftArrow?: boolean;
  rightArrow?: boolean;
  home?: boolean;
  end?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  return?: boolean;
  tab?: boolean;
  escape?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
}

const prevBoundary = (v: string, at: number) => {
  const gs = graphemes(v.slice(0, at));
  return at - (gs.at(-1)?.length ?? 0);
};
const nextBoundary = (v: string, at: number) => at + (graphemes(v.slice(at))[0]?.length ?? 0);

/** The edit after one key, and whether it submits; null when the key is not the editor's. */
export function applyKey(e: LineEdit, input: string, key: EditKey): { edit: LineEdit; submit: boolean } | null {
  const { value, cursor } = e;
  const at = (v: string, c: number) => ({ edit: { value: v, cursor: c }, submit: false });
  if (key.return) return { edit: e, submit: true };
  if (key.leftArrow) return at(value, prevBoundary(value, cursor));
  if (key.rightArrow) return at(value, nextBoundary(value, cursor));
  if (key.home || (key.ctrl && input === 'a')) return at(value, 0);
  if (key.end || (key.ctrl && input === 'e')) return at(value, value.length);
  // Most terminals send DEL (0x7f) for Backspace, which ink reports as `delete`.
  if (key.backspace || key.delete) {
    if (cursor === 0) return at(value, 0);
    const p = prevBoundary(value, cursor);
    return at(value.slice(0, p) + value.slice(cursor), p);
  }
  if (key.ctrl && input === 'u') return at(value.slice(cursor), 0);
  if (key.ctrl && input === 'k') return at(value.slice(0, cursor), cursor);
  if (key.ctrl && input === 'w') {
    const head = value.slice(0, cursor).replace(/\S+\s*$/, '');
    return at(head + value.slice(cursor), head.length);
  }
  if (key.ctrl || key.meta || key.tab || key.escape || key.upArrow || key.downArrow || key.pageUp || key.pageDown || !input) return null;
  // A paste arrives as one event with its newlines (T5): they become spaces and the line is submitted.
  const multiLine = /[\r\n]/.test(input);
  const text = input.replace(/[\r\n]+$/, '').replace(/[\r\n]+/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
  const next = { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
  return { edit: next, submit: multiLine };
}

/**
 * The part of the line shown in `cells` cells: it scrolls sideways to keep the cursor in view
 * (one cell is kept for the cursor at the end).
 */
export function inputWindow(e: LineEdit, cells: number): { before: string; at: string; after: string } {
  const gs = graphemes(e.value);
  let idx = 0;
  for (let i = 0, pos = 0; i < gs.length && pos < e.cursor; i++) {
    pos += gs[i].length;
    idx = i + 1;
  }
  const ws = gs.map(width);
  const atW = ws[idx] ?? 1;
  // Walk left from the cursor while the text fits.
  let start = idx;
  let used = atW;
  while (start > 0 && used + ws[start - 1] <= cells) used += ws[--start];
  let end = idx + 1;
  while (end < gs.length && used + ws[end] <= cells) used += ws[end++];
  return { before: gs.slice(start, idx).join(''), at: gs[idx] ?? ' ', after: gs.slice(idx + 1, end).join('') };
}
