import { terminalSafe } from '../../src/core/terminal-text.js';
import { CODE_COLOR, type Span, inlineSpans, plainText } from './markdown-inline.js';
import { graphemes, take, width } from './width.js';

/** A screen line: its plain text (what search and copy read) and, when styled in parts, its spans. */
export interface StyledLine {
  text: string;
  color?: string;
  bold?: boolean;
  spans?: Span[];
}

const HEADING_COLOR = 'cyan';
const QUOTE_COLOR = 'gray';
const FENCE = /^\s*(`{3,}|~{3,})/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Markdown as screen lines `cells` wide (pure): headings, lists, block quotes, rules, code blocks,
 * tables (aligned when they fit, else one "header: value" line per cell group), bold, italic and
 * inline code, wrapped at spaces by display width (CJK and emoji take two cells). Each source line
 * stays a line: answers and the triage's plain text use line breaks as breaks. `open`: the text is
 * still being written, so its last line's unclosed markers style the rest of it (nothing jumps when
 * they close) and an unclosed code block is code. Characters a terminal would act on are escaped.
 */
export function markdownLines(source: string, cells: number, o: { open?: boolean } = {}): StyledLine[] {
  const max = Math.max(4, cells);
  const src = terminalSafe(source).replace(/\t/g, '    ').split('\n');
  const out: StyledLine[] = [];
  let fence: string | null = null;
  for (let i = 0; i < src.length; i++) {
    const line = src[i];
    const last = o.open === true && i === src.length - 1;
    if (fence !== null) {
      const close = FENCE.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length && !line.trim().slice(close[1].length)) fence = null;
      else out.push(...codeLines(line, max));
      continue;
    }
    const f = FENCE.exec(line);
    if (f) {
      fence = f[1];
      continue;
    }
    if (!line.trim()) {
      if (out.length && out[out.length - 1].text !== '') out.push({ text: '' });
      continue;
    }
    if (line.includes('|') && i + 1 < src.length && TABLE_RULE.test(src[i + 1]) && src[i + 1].includes('-')) {
      const rows = [cellsOf(line)];
      let j = i + 2;
      for (; j < src.length && src[j].includes('|') && src[j].trim(); j++) rows.push(cellsOf(src[j]));
      out.push(...tableLines(rows, max));
      i = j - 1;
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      const spans = inlineSpans(h[2], last).map((s) => ({ ...s, bold: true, color: s.color ?? (h[1].length <= 2 ? HEADING_COLOR : undefined) }));
      out.push(...wrapSpans(spans, max, '', ''));
      continue;
    }
    if (RULE.test(line)) {
      out.push({ text: '─'.repeat(max), color: QUOTE_COLOR });
      continue;
    }
    const q = QUOTE.exec(line);
    if (q) {
      out.push(...wrapSpans(inlineSpans(q[1], last), max, '│ ', '│ ').map((l) => ({ ...l, color: QUOTE_COLOR })));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const indent = ' '.repeat(Math.min(item[1].length, 8));
      const mark = /\d/.test(item[2]) ? `${item[2]} ` : '• ';
      out.push(...wrapSpans(inlineSpans(item[3], last), max, indent + mark, indent + ' '.repeat(width(mark))));
      continue;
    }
    // A plain line keeps its indent, and so do its wrapped continuations.
    const lead = /^\s*/.exec(line)![0].slice(0, 8);
    out.push(...wrapSpans(inlineSpans(line.trimStart(), last), max, lead, lead));
  }
  while (out.length && out[out.length - 1].text === '') out.pop();
  return out;
}

/** A code line: indented, in the code colour, broken by cells (code has no spaces to wrap at). */
function codeLines(line: string, max: number): StyledLine[] {
  const room = Math.max(1, max - 2);
  const out: StyledLine[] = [];
  let rest = line;
  do {
    const head = take(rest, room) || graphemes(rest)[0];
    out.push({ text: `  ${head}`, color: CODE_COLOR });
    rest = rest.slice(head.length);
  } while (rest);
  return out;
}

function cellsOf(row: string): string[] {
  const t = row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return t.split(/(?<!\\)\|/).map((c) => plainText(inlineSpans(c.trim())));
}

/** A table aligned in columns when it fits the width; else each row as "header: value · ..." lines. */
function tableLines(rows: string[][], max: number): StyledLine[] {
  const n = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: n }, (_, k) => Math.max(...rows.map((r) => width(r[k] ?? ''))));
  const total = widths.reduce((a, b) => a + b, 0) + 3 * (n - 1);
  const [head, ...body] = rows;
  if (total <= max) {
    const row = (r: string[]) => widths.map((w, k) => (r[k] ?? '') + ' '.repeat(w - width(r[k] ?? ''))).join(' │ ').trimEnd();
    return [{ text: row(head), bold: true }, { text: widths.map((w) => '─'.repeat(w)).join('─┼─'), color: QUOTE_COLOR }, ...body.map((r) => ({ text: row(r) }))];
  }
  const out: StyledLine[] = [];
  for (const r of body) {
    const spans: Span[] = [];
    r.forEach((v, k) => {
      if (k > 0) spans.push({ text: ' · ' });
      if (head[k]) spans.push({ text: `${head[k]}: `, bold: true });
      spans.push({ text: v });
    });
    out.push(...wrapSpans(spans, max, '• ', '  '));
  }
  return out;
}

/**
 * Styled spans wrapped to `max` cells at spaces, the first line after `first`, the rest after
 * `next` (a list item's hanging indent); a word longer than the room is broken by cells.
 */
function wrapSpans(spans: Span[], max: number, first: string, next: string): StyledLine[] {
  const lines: Span[][] = [];
  let cur: Span[] = [];
  let used = 0;
  let room = Math.max(1, max - width(first));
  const push = (text: string, style: Span) => {
    const last = cur[cur.length - 1];
    if (last && last.bold === style.bold && last.italic === style.italic && last.color === style.color) last.text += text;
    else cur.push({ ...style, text });
    used += width(text);
  };
  const newLine = () => {
    lines.push(cur);
    cur = [];
    used = 0;
    room = Math.max(1, max - width(next));
  };
  for (const s of spans) {
    for (const word of s.text.split(/(\s+)/)) {
      if (!word) continue;
      const w = width(word);
      if (/^\s+$/.test(word)) {
        if (used > 0 && used + w <= room) push(word, s);
        else if (used > 0) newLine();
        continue;
      }
      if (used + w > room && used > 0) {
        trimEnd(cur);
        newLine();
      }
      let rest = word;
      while (width(rest) > room - used) {
        const head = take(rest, room - used) || (used > 0 ? '' : graphemes(rest)[0]);
        if (!head) {
          newLine();
          continue;
        }
        push(head, s);
        rest = rest.slice(head.length);
        newLine();
      }
      if (rest) push(rest, s);
    }
  }
  trimEnd(cur);
  lines.push(cur);
  return lines.map((l, k) => {
    const lead = k === 0 ? first : next;
    const parts = lead ? [{ text: lead }, ...l] : l;
    const text = plainText(parts);
    return l.some((p) => p.bold || p.italic || p.color) ? { text, spans: parts } : { text };
  });
}

function trimEnd(line: Span[]): void {
  while (line.length && !line[line.length - 1].text.trimEnd()) line.pop();
  if (line.length) line[line.length - 1].text = line[line.length - 1].text.trimEnd();
}
