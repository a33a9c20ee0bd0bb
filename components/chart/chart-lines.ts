import { fromZero, sparkline } from '../../src/core/sparkline.js';
import type { Span } from '../text/markdown-inline.js';
import type { StyledLine } from '../text/markdown-lines.js';
import { cut, padStart, width as cellsOf, wrap } from '../text/width.js';
import { TAG_COLORS } from '../theme/palette.js';
import { type BrailleGrid, brailleChar, dotY, emptyGrid, legendMark, plotSeries } from './braille.js';
import { axisNumber, timeCol, timeLabel, timeTicks, valueRange } from './ticks.js';

/**
 * The Chart tab's lines (pure: state and size in, lines out, so a resize or Ctrl-L draws exactly
 * this again). Several signals are stacked small charts, one per signal, over one time axis: the
 * signals have different units (errors are a count, p95 is milliseconds), and one value axis for
 * both would flatten one of them. Below MIN_PLOT_COLS x MIN_PLOT_ROWS the charts become labelled
 * sparklines, one line per series.
 */

/** coral_query_timeseries' structured result, the parts the chart reads. */
export interface TimeseriesJson {
  signal: string;
  metric?: string | null;
  shape: string;
  unit: string;
  service?: string | null;
  window?: { label: string; absolute: boolean };
  step: { text: string; ms: number; count: number };
  times: string[];
  series: { label: string; samples: number; points: (number | null)[]; min: number | null; max: number | null; last: number | null }[];
  onset: { time: string; step: number | null; metric: string } | null;
  unknownService?: string | null;
}

export interface ChartViewState {
  service: string;
  /** The signals asked for, in order: `errors`, `p95`, `metric:<name>`. */
  signals: string[];
  /** Each signal's result; absent while it is asked. */
  results: Record<string, TimeseriesJson>;
  /** Each signal whose call failed, and why. */
  errors: Record<string, string>;
}

/** Each series' colour, in order; the onset's is the slow marker's yellow. */
const SERIES_COLORS = ['cyan', 'ansi256(208)', 'ansi256(77)', 'ansi256(213)'] as const;
const ONSET_COLOR = TAG_COLORS.slow;
const AXIS_COLOR = 'gray';

export const MIN_PLOT_COLS = 30;
const MIN_PLOT_ROWS = 3;
const MAX_PLOT_ROWS = 12;

const WORDS: Record<string, string> = { requests: 'requests', errors: 'errors', error_rate: 'error rate', p50: 'P50 latency', p95: 'P95 latency', p99: 'P99 latency', logs: 'log records' };
/** The signal as a chart's title names it. */
const signalTitle = (key: string): string => WORDS[key] ?? key.replace(/^metric:/, '');

/** The unit a chart's axis shows: a ratio in percent, "1" (a plain number) as nothing, bytes (UCUM By) as B. */
const displayUnit = (r: TimeseriesJson): string => (r.shape === 'ratio' ? '%' : r.unit === '1' ? '' : r.unit.replace(/^By\b/, 'B'));
/** The points as drawn: a ratio in percent. */
const displayPoints = (r: TimeseriesJson, points: readonly (number | null)[]) => (r.shape === 'ratio' ? points.map((v) => (v === null ? null : v * 100)) : [...points]);

/** A value with its unit, for titles and sparkline labels: 42, 812ms, 12.5%, 3.1 By. */
export function valueText(v: number | null, unit: string): string {
  if (v === null) return '-';
  const n = axisNumber(v);
  if (unit === '%') return `${n}%`;
  if (unit === 'ms' || unit === 's' || unit === 'B' || unit === 'B/s' || unit === '') return `${n}${unit}`;
  return n;
}

const hhmm = (iso: string) => timeLabel(Date.parse(iso), 60_000);

/** The common time axis of the charts shown: from the earliest step to the latest. */
function axisOf(results: readonly TimeseriesJson[]): { fromMs: number; toMs: number } {
  const firsts = results.filter((r) => r.times.length > 0).map((r) => Date.parse(r.times[0]));
  const lasts = results.filter((r) => r.times.length > 0).map((r) => Date.parse(r.times[r.times.length - 1]));
  if (firsts.length === 0) return { fromMs: 0, toMs: 1 };
  return { fromMs: Math.min(...firsts), toMs: Math.max(...lasts) };
}

/** Where each step of a result lies on the axis, in dot columns (two per character). */
const dotCols = (r: TimeseriesJson, axis: { fromMs: number; toMs: number }, cols: number) => r.times.map((t) => timeCol(Date.parse(t), axis.fromMs, axis.toMs, cols * 2));

/** The onset's character column on the axis, or null when it lies before the steps shown. */
export function onsetCol(r: TimeseriesJson, axis: { fromMs: number; toMs: number }, cols: number): number | null {
  if (!r.onset || r.onset.step === null || !r.times[r.onset.step]) return null;
  return Math.floor(timeCol(Date.parse(r.times[r.onset.step]), axis.fromMs, axis.toMs, cols * 2) / 2);
}

const hasData = (r: TimeseriesJson) => r.series.some((s) => s.samples > 0);

export type ChartMode = 'braille' | 'spark';

/**
 * How `charts` charts fit `width` x `height` (pure): braille charts of `plotRows` rows each while a
 * plot keeps MIN_PLOT_COLS x MIN_PLOT_ROWS, else labelled sparklines. A braille chart is its title,
 * its plot and its axis line; the time labels are written once, under the last chart.
 */
export function chartLayout(charts: number, width: number, height: number, axisCols: number, otherLines = 0): { mode: ChartMode; plotRows: number; plotCols: number } {
  const plotCols = width - axisCols;
  const room = height - 1 - otherLines - 1;
  const plotRows = charts === 0 ? 0 : Math.min(MAX_PLOT_ROWS, Math.floor(room / charts) - 2);
  if (charts > 0 && plotCols >= MIN_PLOT_COLS && plotRows >= MIN_PLOT_ROWS) return { mode: 'braille', plotRows, plotCols };
  return { mode: 'spark', plotRows: 0, plotCols: Math.max(1, width) };
}

const line = (spans: Span[]): StyledLine => ({ text: spans.map((s) => s.text).join(''), spans });

/** Spans that fill a row of `cells`: each character placed at its column, later ones over earlier. */
class Row {
  private readonly chars: string[];
  private readonly colors: (string | undefined)[];
  private readonly bold: boolean[];
  constructor(readonly cells: number) {
    this.chars = new Array<string>(cells).fill(' ');
    this.colors = new Array<string | undefined>(cells).fill(undefined);
    this.bold = new Array<boolean>(cells).fill(false);
  }

  /** Writes `text` (single-cell characters) from column `at`, cut at the row's end. */
  put(at: number, text: string, color?: string, bold = false): this {
    [...text].forEach((ch, i) => {
      const c = at + i;
      if (c < 0 || c >= this.cells) return;
      this.chars[c] = ch;
      this.colors[c] = color;
      this.bold[c] = bold;
    });
    return this;
  }

  isBlank(from: number, to: number): boolean {
    for (let c = Math.max(0, from); c < Math.min(this.cells, to); c++) if (this.chars[c] !== ' ') return false;
    return true;
  }

  spans(): Span[] {
    const out: Span[] = [];
    for (let c = 0; c < this.cells; c++) {
      const last = out[out.length - 1];
      const same = last && last.color === this.colors[c] && Boolean(last.bold) === this.bold[c];
      if (same) last.text += this.chars[c];
      else out.push({ text: this.chars[c], ...(this.colors[c] ? { color: this.colors[c] } : {}), ...(this.bold[c] ? { bold: true } : {}) });
    }
    // Trailing spaces are the row's fill: ink pads the rest.
    while (out.length > 0 && /^ +$/.test(out[out.length - 1].text) && !out[out.length - 1].color) out.pop();
    if (out.length > 0 && !out[out.length - 1].color) out[out.length - 1] = { ...out[out.length - 1], text: out[out.length - 1].text.replace(/ +$/, '') };
    return out;
  }
}

/** A chart's title: signal, unit, legend (several series) or latest and max, and the onset over its marker (or after the title). */
function titleRow(key: string, r: TimeseriesJson, cells: number, axisCols: number, onset: number | null): StyledLine {
  const unit = displayUnit(r);
  const row = new Row(cells);
  let at = 0;
  const put = (text: string, color?: string, bold = false) => {
    row.put(at, text, color, bold);
    at += text.length;
  };
  put(signalTitle(key), undefined, true);
  if (unit) put(` ${unit}`, AXIS_COLOR);
  const onsetLabel = r.onset ? `onset ${hhmm(r.onset.time)}${onset === null ? ' (before the window)' : ''}` : '';
  // The onset's label has a place kept for it: the rest of the title gives way first.
  const keep = onsetLabel ? onsetLabel.length + 4 : 0;
  const shown = r.series.filter((s) => s.samples > 0);
  const extras: { text: string; color?: string }[][] = shown.length > 1
    ? shown.map((s, i) => [{ text: '  ' }, { text: legendMark(i), color: SERIES_COLORS[i % SERIES_COLORS.length] }, { text: ` ${s.label}` }])
    : shown.length === 1
      ? (() => {
        const [last, max] = displayPoints(r, [shown[0].last, shown[0].max]);
        return [[{ text: ` · latest ${valueText(last, unit)}`, color: AXIS_COLOR }], [{ text: ` · max ${valueText(max, unit)}`, color: AXIS_COLOR }]];
      })()
      : [];
  let drawn = 0;
  for (const [k, parts] of extras.entries()) {
    const len = parts.reduce((n, p) => n + p.text.length, 0);
    // A legend entry that is not the last leaves room for the count of those after it.
    const tail = shown.length > 1 && k < extras.length - 1 ? 3 + String(extras.length - k - 1).length : 0;
    if (at + len + keep + tail > cells) break;
    for (const p of parts) put(p.text, p.color);
    drawn++;
  }
  // Series the legend had no room for are counted (z gives it the width).
  const left = shown.length > 1 ? shown.length - drawn : 0;
  if (left > 0 && at + 3 + String(left).length + keep <= cells) put(`  +${left}`, AXIS_COLOR);
  if (onsetLabel) {
    // Before the window, and no room to say it in full: "(before)".
    const label = onset === null && at + 3 + onsetLabel.length > cells ? `onset ${hhmm((r.onset as { time: string }).time)} (before)` : onsetLabel;
    const col = onset === null ? -1 : axisCols + onset;
    const over = col >= 0 && col + 1 + label.length <= cells ? col : col - label.length;
    if (onset !== null && over > at + 1 && row.isBlank(over - 1, over + label.length + 1)) row.put(over, col === over ? `┊${label}` : `${label}┊`, ONSET_COLOR, true);
    else row.put(at, ` · ${label}`, ONSET_COLOR, true);
  }
  return line(row.spans());
}

/** One braille chart: title, plot rows with the value axis, the axis line with ticks and the onset. */
function brailleChart(key: string, r: TimeseriesJson, o: { cells: number; axisCols: number; plotCols: number; plotRows: number; axis: { fromMs: number; toMs: number }; ticks: number[] }): StyledLine[] {
  const shown = r.series.filter((s) => s.samples > 0);
  const all = shown.flatMap((s) => displayPoints(r, s.points));
  const { lo, hi } = valueRange(all, fromZero(r.shape));
  const xs = dotCols(r, o.axis, o.plotCols);
  const g: BrailleGrid = emptyGrid(o.plotCols, o.plotRows);
  shown.forEach((s, i) => plotSeries(g, displayPoints(r, s.points), lo, hi, i, xs));
  const marker = onsetCol(r, o.axis, o.plotCols);
  const out: StyledLine[] = [titleRow(key, r, o.cells, o.axisCols, marker)];
  const labelAt = new Map<number, string>([[0, axisNumber(hi)], [o.plotRows - 1, axisNumber(lo)]]);
  if (o.plotRows >= 5) labelAt.set(Math.floor(dotY((lo + hi) / 2, lo, hi, o.plotRows) / 4), axisNumber((lo + hi) / 2));
  for (let y = 0; y < o.plotRows; y++) {
    const row = new Row(o.cells);
    const label = labelAt.get(y);
    row.put(0, padStart(label ?? '', o.axisCols - 1), AXIS_COLOR).put(o.axisCols - 1, label === undefined ? '│' : '┤', AXIS_COLOR);
    for (let c = 0; c < o.plotCols; c++) {
      const bits = g.bits[y][c];
      if (bits !== 0) row.put(o.axisCols + c, brailleChar(bits), SERIES_COLORS[g.owner[y][c] % SERIES_COLORS.length]);
      else if (c === marker) row.put(o.axisCols + c, '┊', ONSET_COLOR);
    }
    out.push(line(row.spans()));
  }
  const axisRow = new Row(o.cells).put(o.axisCols - 1, '└' + '─'.repeat(o.plotCols), AXIS_COLOR);
  for (const t of o.ticks) axisRow.put(o.axisCols + t, '┬', AXIS_COLOR);
  if (marker !== null) axisRow.put(o.axisCols + marker, '▲', ONSET_COLOR, true);
  out.push(line(axisRow.spans()));
  return out;
}

/** The time labels under the last chart, each centred on its tick (inside the axis), none over another. */
function tickLabels(ticks: { labelAt: number; label: string }[], cells: number, axisCols: number): StyledLine {
  const row = new Row(cells);
  let free = 0;
  for (const t of ticks) {
    const at = axisCols + t.labelAt;
    if (at < free) continue;
    row.put(at, t.label, AXIS_COLOR);
    free = at + t.label.length + 1;
  }
  const text = row.spans();
  return line(text.length > 0 ? text : [{ text: '' }]);
}

/** Each cell's value on a sparkline of `cells` over the axis: the largest point that falls in it, null where none does. */
export function resample(points: readonly (number | null)[], times: readonly string[], axis: { fromMs: number; toMs: number }, cells: number): (number | null)[] {
  const out: (number | null)[] = new Array<number | null>(cells).fill(null);
  points.forEach((v, i) => {
    if (v === null || !Number.isFinite(v) || !times[i]) return;
    const c = timeCol(Date.parse(times[i]), axis.fromMs, axis.toMs, cells);
    out[c] = out[c] === null ? v : Math.max(out[c] as number, v);
  });
  return out;
}

/**
 * Labelled sparklines: per series its label (unit, latest) over a sparkline of the whole width when
 * `tall`, else label, sparkline and latest on one line; then a line with the window's ends and the onset.
 * At most `room` lines for the series: what does not fit is counted on the last of them.
 */
function sparkLines(ready: [string, TimeseriesJson][], cells: number, axis: { fromMs: number; toMs: number }, tall: boolean, room: number): StyledLine[] {
  const all = ready.flatMap(([key, r]) => {
    const shown = r.series.filter((s) => s.samples > 0);
    // A series by its own name when the chart is of one signal (the header and the pane say which).
    const name = (label: string) => (shown.length <= 1 ? signalTitle(key) : ready.length === 1 ? label : `${signalTitle(key)} ${label}`);
    return shown.map((s, i) => ({ key, r, s, i, label: name(s.label) }));
  });
  const fits = tall ? Math.floor(room / 2) : room;
  const rows = all.length > fits ? all.slice(0, Math.max(0, fits - (tall ? 0 : 1))) : all;
  const values = rows.map((x) => valueText(displayPoints(x.r, [x.s.last])[0], displayUnit(x.r)));
  const labelCols = tall ? 0 : Math.min(12, Math.max(0, ...rows.map((x) => x.label.length)));
  const valueCols = tall ? 0 : Math.max(0, ...values.map((v) => v.length));
  const spark = tall ? cells : Math.max(1, cells - labelCols - valueCols - 2);
  const out = rows.flatMap((x, n) => {
    const pts = resample(displayPoints(x.r, x.s.points), x.r.times, axis, spark);
    // From zero for counts (as the braille chart), up to the highest point: the sparkline's few levels all used.
    const { lo } = valueRange(pts, fromZero(x.r.shape));
    const bar = { text: sparkline(pts, { min: lo }), color: SERIES_COLORS[x.i % SERIES_COLORS.length] };
    if (tall) {
      const unit = displayUnit(x.r);
      const max = displayPoints(x.r, [x.s.max])[0];
      return [line([{ text: cut(x.label, cells), bold: true }, { text: cut(`${unit ? ` ${unit}` : ''} · latest ${values[n]} · max ${valueText(max, unit)}`, Math.max(0, cells - x.label.length)), color: AXIS_COLOR }]), line([bar])];
    }
    return [line([{ text: `${cut(x.label, labelCols).padEnd(labelCols)} `, bold: true }, bar, { text: ` ${values[n].padStart(valueCols)}`, color: AXIS_COLOR }])];
  });
  if (rows.length < all.length) out.push({ text: cut(`+${all.length - rows.length} more series not shown (z zooms)`, cells), color: AXIS_COLOR });
  const row = new Row(cells);
  const base = tall ? 0 : labelCols + 1;
  const ends = [{ at: base, text: timeLabel(axis.fromMs, 60_000) }, { at: base + spark - 5, text: timeLabel(axis.toMs, 60_000) }];
  let taken: [number, number] | null = null;
  const withOnset = ready.map(([, r]) => r).find((r) => r.onset);
  if (withOnset?.onset) {
    const col = onsetCol(withOnset, axis, spark);
    const label = `onset ${hhmm(withOnset.onset.time)}`;
    const at = col === null ? base : base + col;
    const text = col === null ? `${label} (before)` : at + 1 + label.length <= cells ? `▲${label}` : `${label}▲`;
    const start = text.endsWith('▲') ? at - label.length : at;
    row.put(start, text, ONSET_COLOR, true);
    taken = [start - 1, start + text.length + 1];
  }
  // The window's ends, where the onset's label leaves room for them.
  for (const e of ends) if (!taken || e.at + e.text.length <= taken[0] || e.at >= taken[1]) row.put(e.at, e.text, AXIS_COLOR);
  out.push(line(row.spans()));
  return out;
}

/** The view's first line: service, window, steps. */
function headerOf(v: ChartViewState, ready: TimeseriesJson[], cells: number): StyledLine {
  const r = ready[0];
  const win = r?.window?.label ?? '';
  const steps = r ? `step ${r.step.text}` : '';
  const text = [v.service, win, steps, r ? 'UTC' : ''].filter(Boolean).join(' · ');
  return { text: cut(text, cells), bold: true };
}

/** The Chart tab for `v` in `cells` x `height` (pure); `zoom`: the view could have the whole width (z), said when it had to squeeze. */
export function chartLines(v: ChartViewState | null, cells: number, height: number, opts: { zoom?: boolean } = {}): StyledLine[] {
  if (!v) return [{ text: cut('No chart yet: run :chart <service> [errors p95 ...]', cells), color: 'gray' }];
  const ready: [string, TimeseriesJson][] = [];
  const notes: StyledLine[] = [];
  for (const key of v.signals) {
    const r = v.results[key];
    const err = v.errors[key];
    // What went wrong is wrapped, not cut: an unknown service's answer names the closest ones.
    if (err) notes.push(...wrap(`✗ ${signalTitle(key)}: ${err}`, cells).map((text) => ({ text: cut(text, cells), color: TAG_COLORS.error })));
    else if (!r) notes.push({ text: cut(`⋯ ${signalTitle(key)}: asking coral_query_timeseries…`, cells), color: 'gray' });
    else if (!hasData(r)) notes.push(...wrap(`${signalTitle(key)}: ${r.unknownService ?? 'nothing was sent in the window (every step is a gap)'}`, cells).map((text) => ({ text: cut(text, cells), color: 'gray' })));
    else ready.push([key, r]);
  }
  const header = headerOf(v, ready.map(([, r]) => r), cells);
  if (ready.length === 0) return [header, ...notes].slice(0, height);
  const axis = axisOf(ready.map(([, r]) => r));
  // One value axis width for every chart, so the plots line up over the one time axis.
  const labels = ready.flatMap(([, r]) => {
    const { lo, hi } = valueRange(r.series.filter((s) => s.samples > 0).flatMap((s) => displayPoints(r, s.points)), fromZero(r.shape));
    return [axisNumber(lo), axisNumber(hi), axisNumber((lo + hi) / 2)];
  });
  const axisCols = Math.max(...labels.map((l) => cellsOf(l))) + 1;
  const layout = chartLayout(ready.length, cells, height, axisCols, notes.length);
  if (layout.mode === 'spark') {
    const series = ready.reduce((n, [, r]) => n + r.series.filter((x) => x.samples > 0).length, 0);
    const zoom: StyledLine[] = opts.zoom ? [{ text: cut('z: zoom for the line chart', cells), color: 'gray' }] : [];
    // What the series may take: the header, the time line, the notes and the zoom hint keep theirs.
    const room = height - 2 - notes.length - zoom.length;
    const tall = 2 * series <= room;
    return [header, ...sparkLines(ready, cells, axis, tall, Math.max(1, room)), ...notes, ...zoom].slice(0, height);
  }
  const ticks = timeTicks(axis.fromMs, axis.toMs, layout.plotCols);
  const o = { cells, axisCols, plotCols: layout.plotCols, plotRows: layout.plotRows, axis, ticks: ticks.map((t) => t.col) };
  const charts = ready.flatMap(([key, r]) => brailleChart(key, r, o));
  return [header, ...charts, tickLabels(ticks, cells, axisCols), ...notes].slice(0, height);
}
