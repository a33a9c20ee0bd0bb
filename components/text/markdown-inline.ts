/** A run of text in one style. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  color?: string;
}

export const CODE_COLOR = 'ansi256(180)';
const LINK_COLOR = 'gray';

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * One line of Markdown's inline syntax as styled spans (pure): **bold**, __bold__, *italic*,
 * _italic_ (not inside words: tool names are snake_case), `code`, [text](url) and backslash escapes.
 * A marker with no partner is shown as written, unless `open` (the line a model is still writing):
 * then it styles the rest of the line, so closing it later changes no cell's text and nothing jumps.
 */
export function inlineSpans(line: string, open = false): Span[] {
  const spans: Span[] = [];
  let bold = false;
  let italic = false;
  let buf = '';
  const flush = () => {
    if (buf) spans.push({ text: buf, ...(bold ? { bold } : {}), ...(italic ? { italic } : {}) });
    buf = '';
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length && /[\\`*_[\]()#|>-]/.test(line[i + 1])) {
      buf += line[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(line.slice(i))![0];
      const end = line.indexOf(run, i + run.length);
      if (end >= 0 || open) {
        flush();
        const inner = line.slice(i + run.length, end >= 0 ? end : line.length);
        const text = run.length > 1 ? inner.trim() || inner : inner;
        if (text) spans.push({ text, color: CODE_COLOR, ...(bold ? { bold } : {}) });
        i = end >= 0 ? end + run.length : line.length;
        continue;
      }
      buf += run;
      i += run.length;
      continue;
    }
    if (c === '[') {
      const m = /^\[([^\]\n]+)\]\(([^)\s]+)\)/.exec(line.slice(i));
      if (m) {
        buf += m[1];
        flush();
        spans.push({ text: ` (${m[2]})`, color: LINK_COLOR });
        i += m[0].length;
        continue;
      }
    }
    if (c === '*' || c === '_') {
      const double = line[i + 1] === c;
      const marker = double ? c + c : c;
      const before = line[i - 1] ?? ' ';
      const after = line[i + marker.length] ?? ' ';
      const active = double ? bold : italic;
      // Flanking as CommonMark has it, in short: an opener touches the word after it, a closer the word before.
      const canClose = active && !/\s/.test(before) && !(c === '_' && WORD_CHAR.test(after));
      const canOpen = !active && !/\s/.test(after) && !(c === '_' && WORD_CHAR.test(before));
      // A marker that ends a line still being written may be half of one: hidden until the next words say.
      if (open && i + marker.length === line.length) break;
      if (canClose || (canOpen && (open || hasCloser(line, i + marker.length, marker)))) {
        flush();
        if (double) bold = !bold;
        else italic = !italic;
        i += marker.length;
        continue;
      }
      buf += marker;
      i += marker.length;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return spans;
}

/** Whether `marker` closes later on the line: a non-space before it, and for _ no word character after. */
function hasCloser(line: string, from: number, marker: string): boolean {
  for (let j = line.indexOf(marker, from + 1); j >= 0; j = line.indexOf(marker, j + 1)) {
    // A single * that is half of a ** is not its closer.
    if (marker.length === 1 && (line[j + 1] === marker || line[j - 1] === marker)) continue;
    if (/\s/.test(line[j - 1]) || (marker[0] === '_' && WORD_CHAR.test(line[j + marker.length] ?? ' '))) continue;
    return true;
  }
  return false;
}

export const plainText = (spans: Span[]): string => spans.map((s) => s.text).join('');
