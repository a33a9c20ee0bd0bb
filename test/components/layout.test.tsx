import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { applyKey, inputWindow } from '../../components/input/line-edit.js';
import { METRIC_COLUMNS } from '../../components/panes/MetricsView.js';
import { scrollWindow } from '../../components/panes/scroll.js';
import { layoutTable } from '../../components/panes/table.js';
import { frameUpdate } from '../../components/screen/frame-diff.js';
import { cut, fit, wrap } from '../../components/text/width.js';
import { rowColumns } from '../../components/trace/row-layout.js';
import { KEY, mount, node, tick, trace } from './fixtures.js';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

describe('text in terminal cells', () => {
  it('cuts CJK, emoji and combining marks by display width, with an ellipsis', () => {
    expect(cut('支付服务超时', 7)).toBe('支付服…');
    expect(stringWidth(cut('支付服务超时', 7))).toBe(7);
    expect(fit('🔥🔥🔥', 5)).toBe('🔥🔥…');
    expect(cut('e\u0301te\u0301', 3)).toBe('e\u0301te\u0301');
    expect(cut('plain ascii', 6)).toBe('plain…');
  });

  it('wraps wide text so no line is wider than asked', () => {
    const lines = wrap('結帳服務 在 支付 之後 失敗 了 🔥🔥 because the payment token is invalid', 10);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(10);
    expect(lines.join('')).toContain('🔥🔥');
  });

  it('keeps the cursor of a long input in view, scrolling sideways', () => {
    let e = { value: '', cursor: 0 };
    for (const ch of 'a long question about 支付 latency') e = applyKey(e, ch, {})?.edit ?? e;
    const w = inputWindow(e, 12);
    expect(stringWidth(w.before + w.at + w.after)).toBeLessThanOrEqual(12);
    expect(w.before.endsWith('latency')).toBe(true);
    e = applyKey(e, '', { home: true })?.edit ?? e;
    expect(inputWindow(e, 12).at).toBe('a');
    expect(applyKey({ value: '支付', cursor: 2 }, '', { backspace: true })?.edit).toEqual({ value: '支', cursor: 1 });
    expect(applyKey({ value: 'ab', cursor: 2 }, 'c\r', {})).toEqual({ edit: { value: 'abc', cursor: 3 }, submit: true });
  });
});

describe('columns and tables', () => {
  it('keeps the duration column whatever the width, and the bar only when there is room', () => {
    for (const w of [40, 60, 90, 160]) {
      const c = rowColumns(w, 13);
      expect(c.name + 1 + c.tags + c.duration + (c.bar ? c.bar + 1 : 0)).toBe(w);
    }
    expect(rowColumns(45, 13).bar).toBe(0);
    expect(rowColumns(120, 13).bar).toBeGreaterThan(0);
  });

  it('drops the metrics table\'s least important columns first and says which', () => {
    const wide = layoutTable(METRIC_COLUMNS, 100);
    expect(wide.dropped).toEqual([]);
    const narrow = layoutTable(METRIC_COLUMNS, 45);
    expect(narrow.dropped).toEqual(['P50', 'P99']);
    expect(narrow.columns.map((c) => c.title)).toEqual(['source', 'operation', 'requests', 'P95', 'errors']);
    expect(narrow.columns.reduce((n, c) => n + c.width, 0) + narrow.columns.length - 1).toBe(45);
  });

  it('windows lines with a position indicator', () => {
    expect(scrollWindow(10, 20, 0).indicator).toBeNull();
    const w = scrollWindow(100, 11, 0, true);
    expect([w.start, w.end]).toEqual([90, 100]);
    expect(w.indicator).toContain('lines 91-100 of 100');
    expect(scrollWindow(100, 11, 500).offset).toBe(90);
  });

  it('never draws a row wider than the terminal, with CJK and emoji in names and chat', async () => {
    const t = trace([node('r', '前端服务', 'GET /api/购物车/结帐/支付/确认 🔥🔥🔥 with a very long route name', 'otlp', 0, 100, [
      node('a', 'checkout', '結帳 PlaceOrder 🛒 '.repeat(6), 'ebpf', 5, 60, [], { error: true, slow: true, merged: { spanId: 'm', durationMs: 1, queueMs: 0, statusCode: 'OK', httpStatusCode: null, rpcStatusCode: null } as never }),
    ])], 2);
    for (const [cols, rows] of [[60, 20], [80, 24], [123, 31]]) {
      const m = mount({ cols, rows, traces: [t] });
      cleanup = m.app.unmount;
      m.engine.emit({ type: 'notice', text: '支付服务在发布后失败 🔥 '.repeat(8) });
      await tick();
      await m.keys(KEY.esc, 'j', 'd');
      const lines = m.frame().split('\n');
      expect(lines.length).toBe(rows);
      for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(cols);
      // The duration is always there.
      expect(m.frame()).toMatch(/60ms/);
      m.app.unmount();
    }
  });

  it('shows a one-line notice below 60x20', async () => {
    const m = mount({ cols: 50, rows: 15 });
    cleanup = m.app.unmount;
    await tick();
    expect(m.frame()).toBe('terminal too small (needs 60x20, have 50x15)');
  });
});

describe('frames on the terminal', () => {
  it('addresses rows absolutely, rewrites only changed rows and never writes a newline', () => {
    const first = frameUpdate(null, 'a\nb\nc\n', { cols: 10, rows: 3 });
    expect(first.out).not.toContain('\n');
    expect(first.out).toContain('\x1b[2J');
    const next = frameUpdate(first.lines, 'a\nB\nc', { cols: 10, rows: 3 });
    expect(next.out).toContain('\x1b[2;1H\x1b[2KB');
    expect(next.out).not.toContain('\x1b[1;1H');
    expect(frameUpdate(next.lines, 'a\nB\nc', { cols: 10, rows: 3 }).out).toBe('');
    const tooWide = frameUpdate(null, 'x'.repeat(12), { cols: 10, rows: 3 });
    expect(tooWide.overflow).toEqual([0]);
    expect(tooWide.lines[0]).toContain('x'.repeat(10));
    expect(frameUpdate(null, 'a\nb\nc\nd', { cols: 10, rows: 3 }).lines).toHaveLength(3);
  });
});
