import { describe, expect, it } from 'vitest';
import { METRIC_COLUMNS, metricColumns } from '../../components/panes/MetricsView.js';
import { tabLabels } from '../../components/panes/tab-strip.js';
import { layoutTable } from '../../components/panes/table.js';
import { width } from '../../components/text/width.js';
import { TRACE_COLUMNS } from '../../components/trace/list-view.js';
import { flagText, nameParts, rowColumns } from '../../components/trace/row-layout.js';

const TABS = ['traces', 'columns', 'metrics', 'summary'] as const;
const TITLES = { traces: '1 Traces', columns: '2 Columns', metrics: '3 Metrics', summary: '4 Summary' };

describe('at the stated minimum (60x20: a detail pane 28 cells inside)', () => {
  it('the tab strip fits one row with its spaces, abbreviating the tabs not shown first', () => {
    expect(tabLabels(TABS, TITLES, 'traces', 60).join('')).toBe(' 1 Traces  2 Columns  3 Metrics  4 Summary ');
    expect(tabLabels(TABS, TITLES, 'metrics', 28).join('')).toBe(' 1 T  2 C  3 Metrics  4 S ');
    expect(tabLabels(TABS, TITLES, 'summary', 34).join('')).toBe(' 1 Tra  2 Col  3 Met  4 Summary ');
    for (const w of [8, 12, 16, 20, 28, 40]) expect(width(tabLabels(TABS, TITLES, 'columns', w).join(''))).toBeLessThanOrEqual(w);
  });

  it('open trace rows keep the span name: the bar, then the tags\' words, then the service give way first', () => {
    const wide = rowColumns(28, 15);
    expect(wide.name).toBeLessThan(16);
    const c = rowColumns(28, 15, 3);
    expect(c).toMatchObject({ compact: true, tags: 3, bar: 0 });
    expect(c.name + 1 + c.tags + c.duration).toBe(28);
    expect(rowColumns(90, 15, 3).compact).toBe(false);
    expect(flagText({ error: true, slow: true, merged: {}, orphan: false, links: [1] }, true)).toEqual({ error: '✗', slow: '←', merged: '+', orphan: '', linked: '↪' });
    const p = nameParts(' └ ', 'fraud-detection', 'orders process', 19);
    expect(`${p.head}${p.service}${p.rest}`).toBe(' └ fraud…: orders …');
    const deep = nameParts('▾     │└ ', 'product-catalog', 'GetProduct', 15);
    expect(`${deep.head}${deep.service}${deep.rest}`).toBe('▾     │└ GetPr…');
    expect(nameParts(' └ ', 'cart', 'Get', 16).service).toBe('cart');
  });

  it('trace-list and metric rows are never wider than the pane', () => {
    for (const w of [28, 34, 45, 60]) {
      for (const cols of [TRACE_COLUMNS, METRIC_COLUMNS, metricColumns(w)]) {
        const t = layoutTable(cols as never[], w);
        expect(t.columns.reduce((n, c) => n + c.width, 0) + t.columns.length - 1).toBeLessThanOrEqual(w);
      }
    }
    expect(metricColumns(28)[0].value({ source: 'ebpf' } as never)).toBe('e');
  });
});
