import { formatPercent } from '../../src/core/format.js';
import type { ServiceChange } from '../../src/colony/unified/summary.js';
import { ms } from '../panes/format.js';
import type { SummaryViewState } from '../state/types.js';
import { summaryServices } from '../state/views.js';
import { type Column, cell, layoutTable } from '../panes/table.js';
import { cut, padStart, width as cells, wrap } from '../text/width.js';
import { TAG_COLORS } from '../theme/palette.js';

/**
 * The Summary tab as lines (pure): the window, the "where to look first" line, the stand-out
 * services with their signals, the recent events, then the other services. Service rows are
 * selectable (`service` set); the view scrolls to keep the selected one in sight.
 */
export interface SummaryLine {
  text: string;
  color?: string;
  bold?: boolean;
  /** The index of the service this row selects (summaryServices order). */
  service?: number;
}

const STATUS_COLORS: Record<string, string> = { unhealthy: TAG_COLORS.error, degraded: TAG_COLORS.slow };
const rate = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}/s`;
const hhmm = (iso: string) => iso.slice(11, 16);

type ServiceRow = { c: ServiceChange; lead: string };

/**
 * A service row's columns; the name column is as wide as the longest name (the numbers stay next
 * to it on a wide pane) and shrinks on a narrow one, where the sources and the rate drop first.
 */
export function serviceColumns(nameCells: number): Column<ServiceRow>[] {
  return [
    { title: 'service', cells: nameCells, priority: 0, value: (r) => `${r.lead}${r.c.service}` },
    { title: 'status', cells: 9, priority: 3, value: (r) => r.c.status },
    { title: 'errors', cells: 6, priority: 0, align: 'right', value: (r) => formatPercent(r.c.errorRate) },
    { title: 'P95', cells: 7, priority: 0, align: 'right', value: (r) => (r.c.p95Ms === null ? 'n/a' : ms(r.c.p95Ms)) },
    { title: 'rate', cells: 7, priority: 2, align: 'right', value: (r) => rate(r.c.ratePerSec) },
    { title: 'sources', cells: 12, priority: 4, value: (r) => r.c.sources.map((x) => (x === 'ebpf' ? '[eBPF]' : '[OTLP]')).join('') },
  ];
}

/** The table for these services in `width` cells: the name column gives way (down to 12 cells) before any column drops. */
export function serviceTable(services: ServiceChange[], width: number) {
  const longest = 4 + Math.max(7, ...services.map((c) => cells(c.service)));
  const rest = serviceColumns(0).slice(1).reduce((n, c) => n + c.cells + 1, 0);
  const name = Math.max(12, Math.min(longest, width - rest));
  const t = layoutTable(serviceColumns(name), width);
  return {
    header: t.columns.map((col) => cell(col.title === 'service' ? `    ${col.title}` : col.title, col.width, col.align)).join(' '),
    row: (c: ServiceChange, lead: string) => t.columns.map((col) => cell(col.value({ c, lead }), col.width, col.align)).join(' '),
  };
}

/** The tool's line names the next tool calls for a model; here Enter does that. */
export const lookFirstText = (s: string) => s.replace(/\s*Next: .*$/, '');

/** `waiting`: what to say instead of the empty state while a summary is being worked out. */
export function summaryLines(v: SummaryViewState, width: number, waiting?: string): SummaryLine[] {
  if (v.error) return wrap(`✗ ${v.error}`, width).map((text) => ({ text, color: TAG_COLORS.error }));
  const d = v.data;
  if (!d && waiting) return wrap(waiting, width).map((text) => ({ text, color: 'gray' }));
  if (!d) return wrap('No summary yet: run :summary [30m] for where to look first (the console runs one at startup).', width).map((text) => ({ text, color: 'gray' }));
  const fixed = d.window?.absolute ? d.window.label : null;
  const heading = fixed ? `${fixed} against the window of the same length before` : `Last ${v.timeRange} (${hhmm(d.from)}-${hhmm(d.to)} UTC) against the ${v.timeRange} before`;
  const out: SummaryLine[] = [{ text: cut(heading, width), bold: true }];
  const para = (text: string, style: Omit<SummaryLine, 'text'> = {}) => out.push(...wrap(text, width).map((t) => ({ text: t, ...style })));
  if (d.services.length === 0) {
    para(`No services have sent telemetry in ${fixed ?? `the last ${v.timeRange}`}.`, { color: 'gray' });
    para('Against a running colony this fills in as telemetry arrives; or widen the window: :summary 2h', { color: 'gray' });
    return out;
  }
  const list = summaryServices(d);
  const table = serviceTable(list, width);
  if (d.lookFirst) para(lookFirstText(d.lookFirst), { color: TAG_COLORS.slow, bold: true });
  out.push({ text: '' });
  if (d.intake) para('No service is named: the silence is not one service\'s.', { color: 'gray' });
  else if (d.standOut.length === 0) para('Nothing stands out: no service changed beyond what its sample size allows against the window before.', { color: 'gray' });
  else {
    out.push({ text: cut('Stand out, most likely cause first · Enter: its metrics and worst traces', width), bold: true }, { text: table.header, color: 'gray' });
    d.standOut.forEach((c, i) => {
      out.push({ text: table.row(c, `${padStart(String(i + 1), 2)}. `), color: STATUS_COLORS[c.status], service: i });
      for (const sig of c.signals) out.push(...wrap(sig, Math.max(1, width - 6)).map((t) => ({ text: `      ${t}`, color: 'gray' })));
    });
  }
  if (d.events.length > 0) {
    out.push({ text: '' }, { text: 'Recent events', bold: true });
    for (const e of d.events) out.push({ text: cut(`  ${hhmm(e.time)} ${e.serviceName} ${e.kind}: ${e.title}`, width) });
  }
  const rest = list.slice(d.standOut.length);
  if (rest.length > 0) {
    out.push({ text: '' }, { text: d.standOut.length ? 'Other services' : 'Services', bold: true }, { text: table.header, color: 'gray' });
    rest.forEach((c, i) => out.push({ text: table.row(c, '    '), color: STATUS_COLORS[c.status], service: d.standOut.length + i }));
  }
  return out;
}
