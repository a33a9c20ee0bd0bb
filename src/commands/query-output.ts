import { extent } from '../core/extent.js';
import Table from 'cli-table3';
import { formatCount, formatMs, formatPercent } from '../core/format.js';
import { tableStyle } from '../core/color.js';
import { jsonForTerminal, terminalSafeDeep } from '../core/terminal-text.js';
import type { ToolOutput } from '../colony/tools/types.js';
import { httpOperation } from '../colony/unified/names.js';
import { isStreamMethod } from '../colony/unified/streams.js';
import type { OutputFormat } from './output-option.js';
import { fromZero, sparkline } from '../core/sparkline.js';

type Rec = Record<string, unknown>;
const tagOf = (s: unknown) => (s === 'ebpf' ? '[eBPF]' : '[OTLP]');
const ms = (v: unknown) => (typeof v === 'number' ? formatMs(v) : '');
const str = (v: unknown) => (typeof v === 'string' ? v : null);

function table(head: string[], rows: (string | number)[][]): string {
  const t = new Table({ head, style: tableStyle() });
  t.push(...rows.map((r) => r.map(String)));
  return t.toString();
}

/** A point in a table cell: a latency in ms, a ratio as a percentage, a count grouped, others to 3 digits. */
function pointText(v: unknown, shape: unknown): string {
  if (typeof v !== 'number') return '';
  if (shape === 'duration') return formatMs(v);
  if (shape === 'ratio') return formatPercent(v);
  return Number.isInteger(v) ? formatCount(v) : String(Number(v.toPrecision(3)));
}

/**
 * coral_query_timeseries as a table: one row per series (a heatmap: per latency band, slowest first),
 * its figures, and last its sparkline over the steps (a gap is a space); then the onset and the gaps.
 */
function timeseriesTable(s: Rec): string {
  const step = s.step as Rec;
  const times = s.times as string[];
  const over = `${String(step.count)} x ${String(step.text)}, ${(times[0] ?? '').slice(11, 16)}-${String(step.end).slice(11, 16)} UTC`;
  const zero = fromZero(String(s.shape)) ? { min: 0 } : {};
  const series = s.series as Rec[];
  const heatmap = s.heatmap as { bands: Rec[]; cells: (number[] | null)[] } | null;
  const parts = [`${String(s.signal === 'metric' ? s.metric : s.signal)} (unit ${String(s.unit) || 'none'})${s.source ? ` ${tagOf(s.source)}` : ''}`];
  if (heatmap && heatmap.bands.length > 0) {
    const top = extent(heatmap.cells.flatMap((c) => c ?? []))?.max ?? -Infinity;
    const rows = heatmap.bands.map((b, i) => {
      const row = heatmap.cells.map((c) => (c === null ? null : c[i]));
      return [`${formatMs(b.lowMs as number)}-${formatMs(b.highMs as number)}`, formatCount(row.reduce<number>((n, v) => n + (v ?? 0), 0)), sparkline(row, { min: 0, max: top })];
    }).reverse();
    parts.push(table(['latency', 'spans', over], rows));
  } else {
    parts.push(table(['series', 'samples', 'min', 'max', 'last', over], series.map((x) => [
      String(x.label), formatCount(x.samples as number), pointText(x.min, s.shape), pointText(x.max, s.shape), pointText(x.last, s.shape), sparkline(x.points as (number | null)[], zero),
    ])));
  }
  const onset = s.onset as Rec | null;
  if (onset) parts.push(`Onset: ${String(onset.metric)} began to rise at ${String(onset.time).slice(11, 16)} UTC${onset.step === null ? ', before the steps shown' : ` (step ${String(onset.step)})`}, as coral_query_summary dates it.`);
  const gaps = s.gaps as Rec[];
  if (gaps.length > 0 && series.some((x) => (x.samples as number) > 0)) parts.push(`Nothing sent in ${gaps.length} ${gaps.length === 1 ? 'run' : 'runs'} of steps (blank in the sparkline).`);
  return parts.join('\n');
}

/** Tables for the structured results that are tabular; null when a tool's result is not. */
function asTable(tool: string, s: Rec): string | null {
  // With nothing sent, the text says why (an unknown service, no data in the window).
  if (tool === 'coral_query_timeseries') return (s.series as Rec[]).some((x) => (x.samples as number) > 0) ? timeseriesTable(s) : null;
  if (Array.isArray(s.sections)) {
    const rows = (s.sections as Rec[]).flatMap((sec) => (sec.rows as Rec[]).map((r) => [
      tagOf(r.source),
      String(r.protocol),
      r.protocol === 'http' ? httpOperation(str(r.httpMethod), str(r.httpRoute)) : r.protocol === 'grpc' ? `${r.rpcService ?? ''}/${r.rpcMethod}${isStreamMethod(str(r.rpcMethod)) ? ' (stream)' : ''}` : `${r.dbOperation ?? ''} ${r.dbTable ?? ''}`,
      formatCount(r.requests as number),
      ms(r.p50Ms),
      `${r.percentilesAtLeast ? '>=' : ''}${ms(r.p95Ms)}`,
      `${r.percentilesAtLeast ? '>=' : ''}${ms(r.p99Ms)}`,
      formatPercent(r.errorRate as number),
      String(r.basis),
    ]));
    if (rows.length === 0) return null;
    const notes = [...(s.notes as string[]), s.analysis as string].filter(Boolean);
    return `${table(['source', 'protocol', 'operation', 'requests', 'P50', 'P95', 'P99', 'errors', 'from'], rows)}${notes.length ? `\n${notes.join('\n')}` : ''}`;
  }
  if (Array.isArray(s.standOut)) return summaryTables(s);
  if (Array.isArray(s.traces)) {
    if (s.traces.length === 0) return null;
    return table(['trace', 'start', 'duration', 'spans', 'services'], (s.traces as Rec[]).map((t) => [
      String(t.traceId), new Date(Number(BigInt(String(t.startNs)) / 1_000_000n)).toISOString(), ms(t.durationMs), formatCount(t.spanCount as number), (t.services as string[]).join(', '),
    ]));
  }
  if (Array.isArray(s.services) && tool === 'coral_get_service_health') {
    return table(['service', 'sources', 'status', 'requests', 'errors', 'P95', 'last seen', 'why'], (s.services as Rec[]).map((h) => [
      String(h.serviceName), (h.sources as string[]).map(tagOf).join(''), String(h.status), formatCount(h.requests as number),
      formatPercent(h.errorRate as number), ms(h.p95Ms), String(h.lastSeen), (h.reasons as string[]).join('; '),
    ]));
  }
  if (Array.isArray(s.edges)) {
    return table(['from', 'to', 'kind', 'protocol', 'calls', 'errors', 'sources'], (s.edges as Rec[]).map((e) => [
      String(e.from), String(e.to), String(e.kind), String(e.protocol), formatCount(e.calls as number), formatCount(e.errors as number), (e.sources as string[]).map(tagOf).join(''),
    ]));
  }
  if (Array.isArray(s.events)) {
    return table(['time', 'service', 'kind', 'title'], (s.events as Rec[]).map((e) => [String(e.time), String(e.serviceName), String(e.kind), String(e.title)]));
  }
  if (Array.isArray(s.logs)) {
    return table(['time', 'service', 'level', 'event', 'body', 'trace'], (s.logs as Rec[]).map((l) => [String(l.time), String(l.serviceName), String(l.level), String(l.eventName ?? ''), String(l.body).slice(0, 100), String(l.traceId)]));
  }
  if (Array.isArray(s.metrics)) {
    const v = (x: unknown) => (typeof x === 'number' ? String(x) : '');
    // A summary's quantiles are its client's: the latest of one series, never merged across several.
    const quantiles = (m: Rec) => (m.type !== 'summary' ? ''
      : Array.isArray(m.quantiles) ? (m.quantiles as Rec[]).map((q) => `p${Number((100 * (q.quantile as number)).toPrecision(6))} ${q.value as number}`).join(', ') : 'per series');
    return table(['metric', 'type', 'unit', 'series', 'points', 'last', 'min', 'max', 'count', 'sum', 'quantiles'], (s.metrics as Rec[]).map((m) => [
      String(m.metricName), String(m.type), String(m.unit), String(m.series), String(m.points), v(m.last), v(m.min), v(m.max), v(m.count), v(m.sum),
      quantiles(m),
    ]));
  }
  return null;
}

/** coral_query_summary as tables: what stands out, every service compared with the window before, the events; then where to look first. */
function summaryTables(s: Rec): string {
  const change = (now: unknown, before: unknown, f: (v: number) => string) => (typeof now === 'number' ? `${f(now)}${typeof before === 'number' ? ` (was ${f(before)})` : ''}` : '');
  const serviceRows = (list: Rec[]) => list.map((x) => [
    String(x.service), (x.sources as string[]).map(tagOf).join(''), String(x.status), change(x.ratePerSec, x.prevRatePerSec, (v) => `${v.toFixed(2)}/s`),
    change(x.errorRate, x.prevErrorRate, formatPercent), change(x.p95Ms, x.prevP95Ms, formatMs), (x.signals as string[]).join('; '),
  ]);
  const head = ['service', 'sources', 'status', 'rate', 'errors', 'P95', 'signals'];
  const parts = [`Window ${String(s.from)} .. ${String(s.to)}, compared with ${String(s.previousFrom)} .. ${String(s.from)}`];
  const standOut = s.standOut as Rec[];
  parts.push(standOut.length > 0 ? `Stands out:\n${table(head, serviceRows(standOut))}` : 'Nothing stands out.');
  if (Array.isArray(s.services) && s.services.length > 0) parts.push(`All services:\n${table(head, serviceRows(s.services as Rec[]))}`);
  if (Array.isArray(s.events) && s.events.length > 0) {
    parts.push(`Events:\n${table(['time', 'service', 'kind', 'title'], (s.events as Rec[]).map((e) => [String(e.time), String(e.serviceName), String(e.kind), String(e.title)]))}`);
  }
  if (typeof s.lookFirst === 'string') parts.push(s.lookFirst);
  return parts.join('\n\n');
}

/** Prints a tool's result the way the user asked; `table` prints the text only when there are no rows to tabulate. */
export function printToolOutput(tool: string, out: ToolOutput, format: OutputFormat): void {
  if (format === 'json') {
    process.stdout.write(`${jsonForTerminal(out.structured, 2)}\n`);
    return;
  }
  // Telemetry text is shown, never acted on by the terminal (terminal-text.ts).
  const safe = terminalSafeDeep(out);
  const rendered = format === 'table' ? asTable(tool, safe.structured) : null;
  // A table has no heading of its own: the window it covers goes above it (the summary states its own).
  const window = (safe.structured.window as { label?: unknown } | undefined)?.label;
  const heading = rendered !== null && typeof window === 'string' && !Array.isArray(safe.structured.standOut) ? `Window: ${window}\n` : '';
  process.stdout.write(`${heading}${rendered ?? safe.text}\n`);
}
