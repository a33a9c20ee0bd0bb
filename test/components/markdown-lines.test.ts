import { describe, expect, it } from 'vitest';
import { CODE_COLOR, inlineSpans } from '../../components/text/markdown-inline.js';
import { markdownLines } from '../../components/text/markdown-lines.js';
import { width } from '../../components/text/width.js';

const texts = (md: string, cells: number, open = false) => markdownLines(md, cells, { open }).map((l) => l.text);

describe('inline Markdown', () => {
  it('styles bold, italic and code, and hides their markers', () => {
    expect(inlineSpans('a **b** *c* `d_e` f')).toEqual([{ text: 'a ' }, { text: 'b', bold: true }, { text: ' ' }, { text: 'c', italic: true }, { text: ' ' }, { text: 'd_e', color: expect.any(String) }, { text: ' f' }]);
    expect(inlineSpans('__x__ _y_')).toEqual([{ text: 'x', bold: true }, { text: ' ' }, { text: 'y', italic: true }]);
  });

  it('leaves snake_case, lone stars and unclosed markers as written', () => {
    expect(inlineSpans('coral_query_summary and 5 * 3')).toEqual([{ text: 'coral_query_summary and 5 * 3' }]);
    expect(inlineSpans('the **cause is')).toEqual([{ text: 'the **cause is' }]);
    expect(inlineSpans('a \\*b\\* [3] [1, 2]')).toEqual([{ text: 'a *b* [3] [1, 2]' }]);
  });

  it('on a line still being written, an unclosed marker styles the rest and closing it changes no text', () => {
    expect(inlineSpans('the **cause is', true)).toEqual([{ text: 'the ' }, { text: 'cause is', bold: true }]);
    const streaming = inlineSpans('the **cause is', true).map((s) => s.text).join('');
    const closed = inlineSpans('the **cause is** payment', true).map((s) => s.text).join('');
    expect(closed.startsWith(streaming)).toBe(true);
    // A marker arriving alone at the end is not shown, so the next words do not pull the line back.
    expect(inlineSpans('the *', true)).toEqual([{ text: 'the ' }]);
    expect(inlineSpans('the **', true)).toEqual([{ text: 'the ' }]);
  });

  it('shows a link as its text and its address', () => {
    expect(inlineSpans('see [docs](https://x.io/a)').map((s) => s.text).join('')).toBe('see docs (https://x.io/a)');
  });
});

describe('markdownLines', () => {
  it('renders headings, lists, quotes, rules and code blocks', () => {
    const md = '# Finding\n\n- one **bold**\n- two\n  1. nested\n\n> quoted\n\n---\n\n```sql\nSELECT 1\n```\nafter';
    expect(texts(md, 30)).toEqual(['Finding', '', '• one bold', '• two', '  1. nested', '', '│ quoted', '', '─'.repeat(30), '', '  SELECT 1', 'after']);
    const lines = markdownLines(md, 30);
    expect(lines[0].spans?.every((s) => s.bold)).toBe(true);
    expect(lines[2].spans?.find((s) => s.text === 'bold')?.bold).toBe(true);
  });

  it('wraps within the width by display cells, list items with a hanging indent', () => {
    const lines = texts('- 支付服务失败 支付服务失败 支付服务失败 😀😀😀 end', 16);
    for (const l of lines) expect(width(l)).toBeLessThanOrEqual(16);
    expect(lines[0].startsWith('• ')).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    expect(lines.join('').replace(/[•\s]/g, '')).toBe('支付服务失败支付服务失败支付服务失败😀😀😀end');
    for (const l of texts(`**${'x'.repeat(50)}** and \`${'y'.repeat(40)}\``, 12)) expect(width(l)).toBeLessThanOrEqual(12);
  });

  it('aligns a table that fits and lists the cells of one that does not', () => {
    const md = '| service | P95 |\n|---|--:|\n| payment | 1.2s |\n| cart | 40ms |';
    expect(texts(md, 40)).toEqual(['service │ P95', '────────┼─────', 'payment │ 1.2s', 'cart    │ 40ms']);
    const narrow = texts(md, 12);
    expect(narrow[0]).toBe('• service:');
    for (const l of narrow) expect(width(l)).toBeLessThanOrEqual(12);
  });

  it('shows an unclosed code block as code while it is written, and escapes terminal controls', () => {
    const lines = markdownLines('Run:\n```\nkubectl get pods', 40, { open: true });
    expect(lines.map((l) => l.text)).toEqual(['Run:', '  kubectl get pods']);
    expect(lines[1].color).toBe(CODE_COLOR);
    const hostile = texts('**evil\x1b[2J** \x1b]52;c;eA==\x07 \u202e', 60).join('\n');
    expect(hostile).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    expect(hostile).toContain('\\x1b[2J');
  });

  it('keeps each source line a line, with its indent', () => {
    expect(texts('Stand out:\n  1) payment: failing\nplain  text', 40)).toEqual(['Stand out:', '  1) payment: failing', 'plain  text']);
  });
});
