import stringWidth from 'string-width';
import type { Span } from './markdown-inline.js';

/**
 * Text measured in terminal cells (pure), as ink measures it: CJK and most emoji take two cells,
 * combining marks none. Every cut and pad in the console goes through here, never `.length`.
 */
const segmenter = new Intl.Segmenter();
/**
 * Characters one cell wide each, one UTF-16 unit each: printable ASCII, Latin-1, punctuation
 * (… ·), arrows, box drawing and geometric shapes (▾ ▸ ├─), less the two emoji among them.
 * Most console text is made of these; it skips the grapheme segmenter (the keypress budget).
 */
const ASCII = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u00ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc\u25ff]*$/;

export const width = (text: string): number => (ASCII.test(text) ? text.length : stringWidth(text));

export function graphemes(text: string): string[] {
  if (ASCII.test(text)) return text.split('');
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The longest prefix of `text` that fits in `cells` (whole graphemes only). */
export function take(text: string, cells: number): string {
  if (cells <= 0) return '';
  if (ASCII.test(text)) return text.slice(0, cells);
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = stringWidth(g);
    if (used + w > cells) break;
    out += g;
    used += w;
  }
  return out;
}

/** Cut to at most `cells` cells, with an ellipsis when something was cut. */
export function cut(text: string, cells: number): string {
  if (cells <= 0) return '';
  if (width(text) <= cells) return text;
  return `${take(text, cells - 1)}…`;
}

export const padEnd = (text: string, cells: number): string => text + ' '.repeat(Math.max(0, cells - width(text)));
export const padStart = (text: string, cells: number): string => ' '.repeat(Math.max(0, cells - width(text))) + text;

/** Exactly `cells` cells: cut with an ellipsis, or padded. */
export function fit(text: string, cells: number): string {
  return padEnd(cut(text, cells), cells);
}

/** Wraps text to `cells` cells per line, at spaces where it can, keeping its own line breaks. */
export function wrap(text: string, cells: number): string[] {
  const out: string[] = [];
  const max = Math.max(1, cells);
  for (const para of text.split('\n')) {
    let line = '';
    let lineW = 0;
    for (const word of para.split(/(\s+)/)) {
      if (!word) continue;
      const w = width(word);
      if (lineW + w > max && line.trim()) {
        out.push(line.trimEnd());
        line = word.trimStart();
        lineW = width(line);
      } else {
        line += word;
        lineW += w;
      }
      // A word longer than the line is split by cells.
      while (lineW > max) {
        const head = take(line, max) || graphemes(line)[0];
        out.push(head);
        line = line.slice(head.length);
        lineW = width(line);
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

/** A styled line's spans, cut to `cells` in all (a line never wraps). */
export function spansIn(spans: Span[], cells: number): Span[] {
  const out: Span[] = [];
  let left = cells;
  for (const s of spans) {
    if (left <= 0) break;
    const w = width(s.text);
    out.push(w <= left ? s : { ...s, text: cut(s.text, left) });
    left -= w;
  }
  return out;
}
