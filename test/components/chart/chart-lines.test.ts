import { describe, expect, it } from 'vitest';
import { type ChartViewState, type TimeseriesJson, MIN_PLOT_COLS, chartLayout, chartLines, onsetCol, resample } from '../../../components/chart/chart-lines.js';
import { legendMark } from '../../../components/chart/braille.js';
import { width } from '../../../components/text/width.js';

const N = 60;
const T0 = Date.parse('2026-12-07T13:02:00Z');
const TIMES = Array.from({ length: N }, (_, i) => new Date(T0 + i * 60_000).toISOString());

function result(signal: string, unit: string, shape: string, f: (i: number) => number | null, o: { onset?: number | null; series?: number } = {}): TimeseriesJson {
  const series = Array.from({ length: o.series ?? 1 }, (_, k) => {
    const points = Array.from({ length: N }, (_, i) => { const v = f(i); return v === null ? null : v + k * 3; });
    const seen = points.filter((x): x is number => x !== null);
    return { label: o.series ? `pod-${k}` : 'payment', samples: 100, points, min: Math.min(...seen), max: Math.max(...seen), last: seen[seen.length - 1] };
  });
  const onset = o.onset === undefined ? 40 : o.onset;
  return {
    signal, shape, unit, window: { label: 'last 1h', absolute: false }, step: { text: '1m', ms: 60_000, count: N }, times: TIMES, series,
    onset: onset === null ? null : { time: TIMES[onset] ?? '2026-12-07T12:30:00Z', step: onset < 0 ? null : onset, metric: 'errors' },
  };
}

const GAP = (i: number) => i >= 20 && i < 26;
const errors = result('errors', '{error}', 'count', (i) => (GAP(i) ? null : i < 40 ? 0 : 30 + (i % 5)));
const p95 = result('p95', 'ms', 'duration', (i) => (GAP(i) ? null : i < 40 ? 120 : 800));
const view = (results: Record<string, TimeseriesJson>, signals = Object.keys(results), errs: Record<string, string> = {}): ChartViewState => ({ service: 'payment', signals, results, errors: errs });

/** The plot rows of the first chart: the rows with a value axis (┤ or │ at the axis column). */
const plotRows = (lines: string[]) => {
  const first = lines.findIndex((l) => /^ *\S*[┤│]/.test(l));
  const end = lines.findIndex((l, i) => i > first && l.includes('└'));
  return { rows: lines.slice(first, end), axis: lines[end], axisCol: lines[end].indexOf('└') + 1 };
};

describe('chart layout', () => {
  it('stacks one braille chart per signal over one time axis while a plot keeps its minimum size, else sparklines', () => {
    expect(chartLayout(2, 45, 20, 5)).toEqual({ mode: 'braille', plotRows: 7, plotCols: 40 });
    expect(chartLayout(2, 33, 16, 5).mode).toBe('spark');
    expect(chartLayout(2, MIN_PLOT_COLS + 5, 8, 5).mode).toBe('spark');
    expect(chartLayout(1, 100, 60, 5).plotRows).toBe(12);
  });

  it('draws a chart with value axis labels, the unit, time labels (HH:MM) and the onset marker and label', () => {
    const lines = chartLines(view({ errors, p95 }), 45, 20).map((l) => l.text);
    const text = lines.join('\n');
    expect(lines[0]).toBe('payment · last 1h · step 1m · UTC');
    expect(text).toContain('errors {error}');
    expect(text).toContain('P95 latency ms');
    expect(text).toMatch(/onset 13:42/);
    expect(text).toMatch(/ 40┤/);
    expect(lines[lines.length - 1]).toMatch(/13:15 +13:30 +13:45/);
    expect(lines.length).toBeLessThanOrEqual(20);
    for (const l of lines) expect(width(l)).toBeLessThanOrEqual(45);
  });

  it('puts the onset marker (┊ in the plot, ▲ on the axis) at the onset step\'s column', () => {
    const lines = chartLines(view({ errors }), 45, 20).map((l) => l.text);
    const { rows, axis, axisCol } = plotRows(lines);
    const col = onsetCol(errors, { fromMs: T0, toMs: Date.parse(TIMES[N - 1]) }, 45 - axisCol);
    expect(col).toBe(Math.floor(Math.round((40 / 59) * (2 * (45 - axisCol) - 1)) / 2));
    expect([...axis][axisCol + (col as number)]).toBe('▲');
    // The marker fills the plot's blank cells of that column.
    expect(rows.some((r) => [...r][axisCol + (col as number)] === '┊')).toBe(true);
  });

  it('leaves a gap blank: no dots in the columns of steps where nothing was sent', () => {
    const lines = chartLines(view({ errors }), 45, 20).map((l) => l.text);
    const { rows, axisCol } = plotRows(lines);
    const plotCols = 45 - axisCol;
    // Steps 21-24 lie well inside the gap 20-25 (its edges join to their neighbours' columns).
    const cols = [21, 22, 23, 24].map((i) => Math.floor(Math.round((i / 59) * (2 * plotCols - 1)) / 2));
    for (const r of rows) for (const c of cols) expect([...r][axisCol + c], `row "${r}" col ${c}`).toBe(' ');
  });

  it('names the onset that lies before the window without a marker', () => {
    const early = { ...errors, onset: { time: '2026-12-07T12:30:00Z', step: null, metric: 'errors' } };
    const text = chartLines(view({ errors: early }), 80, 20).map((l) => l.text).join('\n');
    expect(text).toContain('onset 12:30 (before the window)');
    expect(text).not.toContain('▲');
    expect(chartLines(view({ errors: early }), 45, 20)[1].text).toMatch(/onset 12:30 \(before\)$/);
  });

  it('shows an error rate in percent', () => {
    const rate = result('error_rate', '1', 'ratio', (i) => (i < 40 ? 0 : 0.25));
    const text = chartLines(view({ error_rate: rate }), 45, 20).map((l) => l.text).join('\n');
    expect(text).toContain('error rate %');
    expect(text).toContain('latest 25%');
  });

  it('keeps several series apart without colour: a legend with each series\' own dot pattern', () => {
    const grouped = result('p95', 'ms', 'duration', (i) => 100 + (i % 10), { series: 2 });
    const title = chartLines(view({ p95: grouped }), 60, 20).map((l) => l.text)[1];
    expect(title).toContain(`${legendMark(0)} pod-0`);
    expect(title).toContain(`${legendMark(1)} pod-1`);
    const crowded = chartLines(view({ p95: result('p95', 'ms', 'duration', (i) => 100 + i, { series: 9 }) }), 60, 20).map((l) => l.text)[1];
    expect(crowded).toMatch(/pod-1  \+7 /);
  });

  it('degrades to labelled sparklines at 60x20 (a 28-cell pane): label, unit, latest, the bars, then the window\'s ends and the onset', () => {
    const lines = chartLines(view({ errors, p95 }), 28, 16).map((l) => l.text);
    expect(lines[1]).toMatch(/^errors \{error\} · latest 34/);
    expect(lines[2]).toMatch(/^[▁▂▃▄▅▆▇█ ]{28}$/);
    expect(lines[3]).toMatch(/^P95 latency ms/);
    expect(lines[5]).toMatch(/^13:02 .*onset 13:42/);
    for (const l of lines) expect(width(l)).toBeLessThanOrEqual(28);
    expect(lines).not.toContain('z: zoom for the line chart');
    expect(chartLines(view({ errors, p95 }), 28, 16, { zoom: true }).map((l) => l.text)).toContain('z: zoom for the line chart');
  });

  it('counts the series a small pane cannot show, and never draws more lines than the pane has', () => {
    const many = result('p95', 'ms', 'duration', (i) => 100 + (i % 10), { series: 20 });
    const lines = chartLines(view({ p95: many }), 28, 16, { zoom: true }).map((l) => l.text);
    expect(lines).toHaveLength(16);
    expect(lines.join('\n')).toMatch(/^\+8 more series not shown/m);
    expect(lines[1]).toMatch(/^pod-0 /);
    expect(lines[lines.length - 1]).toBe('z: zoom for the line chart');
  });

  it('resamples to the cells: the largest point in each, a cell with no point blank', () => {
    const axis = { fromMs: T0, toMs: T0 + 3 * 60_000 };
    expect(resample([1, 5, null, 2], TIMES.slice(0, 4), axis, 4)).toEqual([1, 5, null, 2]);
    expect(resample([1, 5, 3, 2], TIMES.slice(0, 4), axis, 2)).toEqual([5, 3]);
  });

  it('says what is still asked and what failed, in the order asked, and is a pure function of its input', () => {
    const v = view({ errors }, ['errors', 'p95', 'metric:x'], { 'metric:x': 'metric "x" is not in payment\'s data' });
    const a = chartLines(v, 45, 20);
    expect(a.map((l) => l.text).join('\n')).toMatch(/⋯ P95 latency: asking/);
    expect(a.map((l) => l.text).join('\n')).toContain('✗ x: metric "x" is not in payment\'s data');
    expect(chartLines(v, 45, 20)).toEqual(a);
    expect(chartLines(null, 45, 20)[0].text).toMatch(/No chart yet: run :chart/);
    const unknown = { ...errors, series: [{ ...errors.series[0], samples: 0 }], unknownService: 'No service "paymnt" in the window; did you mean payment?' };
    const said = chartLines(view({ errors: unknown }), 30, 20).map((l) => l.text);
    expect(said.slice(1).join(' ')).toBe('errors: No service "paymnt" in the window; did you mean payment?');
    for (const l of said) expect(width(l)).toBeLessThanOrEqual(30);
  });
});
