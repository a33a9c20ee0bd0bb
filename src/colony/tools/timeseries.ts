import { extent } from '../../core/extent.js';
import { z } from 'zod';
import { closestNames } from '../../core/closest.js';
import { formatCount, formatMs } from '../../core/format.js';
import { fromZero, sparkline } from '../../core/sparkline.js';
import { type Nanos, nsToIso, parseDuration } from '../../core/time.js';
import type { Source } from '../store/rows.js';
import { LOG_LEVELS } from '../store/rows.js';
import type { HistogramPointRow, LatencyStepRow, MetricPoints, NumberPointRow, SpanSeriesQuery, SpanStepRow } from '../store/queries/timeseries.js';
import { LOG_BUCKETS_PER_DOUBLING, logBucketBound } from '../unified/stats.js';
import { type OnsetMetric, serviceOnsetNs } from '../unified/onset.js';
import { AGGREGATES, type Aggregate, type MetricShape, gaugeSteps, quantileSteps, rateSteps, reportingInterval, shapeOf } from '../unified/metric-steps.js';
import { type GapRun, byLargest, chooseSource, gapRuns, groupLabel, otherLabel, topGroups } from '../unified/series-fold.js';
import { type StepGrid, autoStep, formatStep, gridEndNs, gridOf, gridRange, onsetStep, stepForInterval, stepProblem, stepStartNs } from '../unified/steps.js';
import { tag } from '../unified/render-tree.js';
import { type ToolWindow, attributeFilter, attributeKey, limit, serviceName, text, timeRange, windowFields, windowHeading, windowJson, windowOf, windowOutput } from './inputs.js';
import { unknownServiceLine } from './service-hint.js';
import { boundLines } from './text.js';
import { type ToolContext, ToolInputError, type ToolOutput, defineTool } from './types.js';

/** What a time series can chart. */
export const SIGNALS = ['requests', 'errors', 'error_rate', 'p50', 'p95', 'p99', 'latency_heatmap', 'metric', 'logs'] as const;
export type Signal = (typeof SIGNALS)[number];

const SPAN_SIGNALS: readonly Signal[] = ['requests', 'errors', 'error_rate', 'p50', 'p95', 'p99', 'latency_heatmap'];
const QUANTILE_OF: Partial<Record<Signal, 'p50Ms' | 'p95Ms' | 'p99Ms'>> = { p50: 'p50Ms', p95: 'p95Ms', p99: 'p99Ms' };

const SIGNAL_LIST = `${SIGNALS.join(', ')} (metric with metric: a metric's name, e.g. {"signal": "metric", "metric": "process.memory.usage"})`;

/** Words for a signal in a heading. */
const SIGNAL_WORDS: Record<Signal, string> = {
  requests: 'requests', errors: 'errors', error_rate: 'error rate', p50: 'P50 latency', p95: 'P95 latency', p99: 'P99 latency',
  latency_heatmap: 'latency heatmap', metric: 'metric', logs: 'log records by severity',
};

const UNITS: Partial<Record<Signal, string>> = { requests: '{request}', errors: '{error}', error_rate: '1', p50: 'ms', p95: 'ms', p99: 'ms', latency_heatmap: '{span}', logs: '{record}' };

/** The summary dates errors for these signals, latency for these; for the rest, errors, else latency. */
const ONSET_METRICS: Partial<Record<Signal, OnsetMetric[]>> = {
  errors: ['errors'], error_rate: ['errors'], p50: ['latency'], p95: ['latency'], p99: ['latency'], latency_heatmap: ['latency'],
};

const STEP_RE = /^\d+(\.\d+)?(ms|s|m|h|d|w)$/;

const seriesOut = z.object({
  label: z.string().describe('The group\'s value, "(no value)" for what lacks it, "other (N values)" for the rest folded, else the service'),
  group: z.string().nullable().describe('With group_by: the attribute\'s value (null for no value and for other)'),
  other: z.boolean(),
  groups: z.number().describe('How many values of group_by the series holds: 1, or as many as were folded into other'),
  samples: z.number().describe('What the series is made of over the window: spans, log records or metric points'),
  points: z.array(z.number().nullable()).describe('One value per step, oldest first; null where nothing was sent (a gap, never a made-up zero)'),
  min: z.number().nullable(),
  max: z.number().nullable(),
  last: z.number().nullable().describe('The newest step\'s value that is not a gap'),
});

const timeseriesOutput = {
  signal: z.enum(SIGNALS),
  metric: z.string().nullable(),
  metricType: z.enum(['gauge', 'sum', 'histogram']).nullable(),
  /** How the values were made from a metric's points. */
  shape: z.enum(['count', 'ratio', 'duration', 'heatmap', 'gauge', 'rate', 'quantile']),
  unit: z.string().describe('The unit of every point (UCUM, as OpenTelemetry writes it: ms, 1 for a ratio, {request} for a count per step, By, By/s for a rate)'),
  service: z.string().nullable(),
  operation: z.string().nullable(),
  attributes: z.record(z.string(), z.string()),
  groupBy: z.string().nullable(),
  aggregate: z.enum(AGGREGATES).nullable(),
  quantile: z.number().nullable(),
  source: z.enum(['ebpf', 'otlp']).nullable().describe('The source whose spans or points answered (the one that saw the most); null for logs (every record counts)'),
  window: windowOutput,
  from: z.string(),
  to: z.string(),
  step: z.object({
    text: z.string(), ms: z.number(), auto: z.boolean(), count: z.number(),
    start: z.string().describe('Where the first step begins (exclusive); the grid ends at the window\'s end, each step covering (start + k*step, start + (k+1)*step]'),
    end: z.string(),
  }),
  times: z.array(z.string()).describe('Where each step begins, oldest first (the points\' times)'),
  series: z.array(seriesOut),
  heatmap: z.object({
    bucketsPerDoubling: z.number(),
    bands: z.array(z.object({ bucket: z.number(), lowMs: z.number(), highMs: z.number() })).describe('Latency bands, fastest first: (lowMs, highMs]'),
    cells: z.array(z.array(z.number()).nullable()).describe('Per step, spans per band; null where nothing was sent'),
  }).nullable(),
  gaps: z.array(z.object({ firstStep: z.number(), lastStep: z.number(), from: z.string(), to: z.string() })).describe('Runs of steps in which nothing was sent at all'),
  onset: z.object({
    time: z.string(), step: z.number().nullable().describe('The step it falls in; null when it lies before the grid'), metric: z.enum(['errors', 'latency']),
  }).nullable().describe('Where coral_query_summary\'s change detection sees the service\'s change begin (the same function over the same minutes): the chart and the ranking agree'),
  unknownService: z.string().nullable(),
};

type Args = {
  signal: Signal;
  service?: string;
  metric?: string;
  operation?: string;
  attributes?: Record<string, string>;
  group_by?: string;
  limit: number;
  quantile?: number;
  aggregate?: Aggregate;
  time_range: string;
  start?: string;
  end?: string;
  step?: string;
};

interface Series {
  label: string;
  group: string | null;
  other: boolean;
  groups: number;
  samples: number;
  points: (number | null)[];
}

interface Charted {
  /** The grid charted: the one asked for, or (a metric, step automatic) one no finer than the metric reports. */
  grid: StepGrid;
  series: Series[];
  unit: string;
  shape: z.infer<typeof timeseriesOutput.shape>;
  source: Source | null;
  metricType: 'gauge' | 'sum' | 'histogram' | null;
  aggregate: Aggregate | null;
  quantile: number | null;
  heatmap: { bucketsPerDoubling: number; bands: { bucket: number; lowMs: number; highMs: number }[]; cells: (number[] | null)[] } | null;
}

/** Arguments that do not go together, refused before anything is read. */
function refuseMismatches(a: Args): void {
  if (a.signal === 'metric' && a.metric === undefined) {
    throw new ToolInputError('signal "metric" must come with metric: the metric\'s name, e.g. {"signal": "metric", "metric": "process.cpu.utilization"} (coral_query_telemetry_metrics lists a service\'s metrics)');
  }
  if (a.signal !== 'metric' && a.metric !== undefined) {
    throw new ToolInputError(`metric must come with signal "metric" (not "${a.signal}"): {"signal": "metric", "metric": "${a.metric}"}`);
  }
  if (a.operation !== undefined && !SPAN_SIGNALS.includes(a.signal)) {
    throw new ToolInputError(`operation narrows spans: it goes with signal ${SPAN_SIGNALS.join(', ')}, not ${a.signal}`);
  }
  if (a.group_by !== undefined && (a.signal === 'latency_heatmap' || a.signal === 'logs')) {
    throw new ToolInputError(`group_by is not taken with signal ${a.signal} (${a.signal === 'logs' ? 'its series are the severities' : 'a heatmap is one series of latency bands'}); narrow it with attributes instead`);
  }
  if (a.quantile !== undefined && a.signal !== 'metric') throw new ToolInputError(`quantile is for a histogram metric (signal "metric"); for span latency use signal p50, p95 or p99`);
  if (a.aggregate !== undefined && a.signal !== 'metric') throw new ToolInputError('aggregate is for a gauge metric (signal "metric")');
}

function stepOfArgs(a: Args, range: ToolWindow): { stepNs: Nanos; auto: boolean } {
  const span = range.toNs - range.fromNs;
  if (a.step === undefined) return { stepNs: autoStep(span), auto: true };
  const stepNs = parseDuration(a.step);
  const problem = stepProblem(span, stepNs, a.step);
  if (problem) throw new ToolInputError(problem);
  return { stepNs, auto: false };
}

const filterOf = (a: Args, grid: StepGrid) => ({ grid, service: a.service, attributes: a.attributes });

/** Span signals: the source that saw the most, the largest groups apart and the rest as other. */
async function spanSeries(ctx: ToolContext, a: Args, grid: StepGrid): Promise<Charted> {
  const base: SpanSeriesQuery = { ...filterOf(a, grid), operation: a.operation };
  const quantile = QUANTILE_OF[a.signal];
  if (a.signal === 'latency_heatmap') return heatmapSeries(await ctx.store.latencySteps(base), grid, a);
  let rows: SpanStepRow[];
  let source: Source | null;
  let keys: { label: string; group: string | null; other: boolean; groups: number; index: number }[];
  if (a.group_by === undefined) {
    rows = await ctx.store.spanSteps({ ...base, quantiles: quantile !== undefined });
    source = chooseSource(rows.map((r) => ({ source: r.source, samples: r.requests })));
    keys = [{ label: a.service ?? 'every service', group: null, other: false, groups: 1, index: 0 }];
  } else {
    const totals = await ctx.store.spanGroups({ ...base, groupBy: a.group_by });
    const perSource = (['ebpf', 'otlp'] as const).map((s) => ({ source: s, samples: totals.find((t) => t.source === s)?.total ?? 0 }));
    source = chooseSource(perSource);
    const mine = totals.filter((t) => t.source === source);
    const top = topGroups(mine.map((t) => ({ group: t.group, samples: t.spans })), a.limit, mine[0]?.groups ?? 0, mine[0]?.total ?? 0);
    keys = top.kept.map((g, i) => ({ label: groupLabel(g), group: g, other: false, groups: 1, index: i }));
    if (top.folded > 0) keys.push({ label: otherLabel(top.folded), group: null, other: true, groups: top.folded, index: -1 });
    rows = source === null ? [] : await ctx.store.spanSteps({ ...base, source, groupBy: a.group_by, groups: top.kept, quantiles: quantile !== undefined });
  }
  const mine = rows.filter((r) => r.source === source);
  const series = keys.map((k) => {
    const steps = new Map(mine.filter((r) => r.series === k.index).map((r) => [r.step, r]));
    const points = Array.from({ length: grid.count }, (_, i) => {
      const r = steps.get(i);
      if (!r || r.requests === 0) return null;
      if (a.signal === 'requests') return r.requests;
      if (a.signal === 'errors') return r.errors;
      if (a.signal === 'error_rate') return r.errors / r.requests;
      return r[quantile ?? 'p95Ms'];
    });
    return { label: k.label, group: k.group, other: k.other, groups: k.groups, samples: [...steps.values()].reduce((n, r) => n + r.requests, 0), points };
  }).filter((s) => s.samples > 0 || keys.length === 1);
  const shape = a.signal === 'error_rate' ? 'ratio' : quantile ? 'duration' : 'count';
  return { grid, series, unit: UNITS[a.signal] ?? '', shape, source, metricType: null, aggregate: null, quantile: null, heatmap: null };
}

/** The heatmap: per step, spans per log latency band (the colony's LOG_BUCKETS_PER_DOUBLING buckets), fastest band first. */
function heatmapSeries(rows: readonly LatencyStepRow[], grid: StepGrid, a: Args): Charted {
  const source = chooseSource(rows.map((r) => ({ source: r.source, samples: r.spans })));
  const mine = rows.filter((r) => r.source === source);
  const buckets = mine.map((r) => r.bucket);
  const range = extent(buckets);
  const lo = range?.min ?? 0;
  const hi = range?.max ?? -1;
  const bands = Array.from({ length: hi - lo + 1 }, (_, i) => ({ bucket: lo + i, lowMs: logBucketBound(lo + i - 1), highMs: logBucketBound(lo + i) }));
  const cells: (number[] | null)[] = Array.from({ length: grid.count }, () => null);
  for (const r of mine) {
    const row = (cells[r.step] ??= new Array<number>(bands.length).fill(0));
    row[r.bucket - lo] += r.spans;
  }
  const points = cells.map((c) => (c === null ? null : c.reduce((n, x) => n + x, 0)));
  const samples = points.reduce<number>((n, x) => n + (x ?? 0), 0);
  return {
    grid,
    series: [{ label: a.service ?? 'every service', group: null, other: false, groups: 1, samples, points }],
    unit: UNITS.latency_heatmap ?? '', shape: 'heatmap', source, metricType: null, aggregate: null, quantile: null,
    heatmap: { bucketsPerDoubling: LOG_BUCKETS_PER_DOUBLING, bands, cells },
  };
}

/** Log records per severity, most severe first; a step in which the records sent had none of a level counts 0 there, a step with no record at all is a gap. */
async function logSeries(ctx: ToolContext, a: Args, grid: StepGrid): Promise<Charted> {
  const rows = await ctx.store.logSteps(filterOf(a, grid));
  const sent = new Set(rows.map((r) => r.step));
  const levels = [...LOG_LEVELS].reverse().filter((l) => rows.some((r) => r.level === l));
  const series = levels.map((level) => {
    const steps = new Map(rows.filter((r) => r.level === level).map((r) => [r.step, r.records]));
    const points = Array.from({ length: grid.count }, (_, i) => (sent.has(i) ? (steps.get(i) ?? 0) : null));
    return { label: level, group: level, other: false, groups: 1, samples: [...steps.values()].reduce((n, x) => n + x, 0), points };
  });
  return { grid, series, unit: UNITS.logs ?? '', shape: 'count', source: null, metricType: null, aggregate: null, quantile: null, heatmap: null };
}

/** The metrics the window holds for the service, for a name it does not hold: refused with the closest names. */
async function refuseUnknownMetric(ctx: ToolContext, a: Args, grid: StepGrid, name: string): Promise<void> {
  const held = await ctx.store.listMetrics({ range: gridRange(grid), service: a.service });
  const same = held.filter((m) => m.metricName === name);
  if (same.some((m) => m.type === 'summary') && !same.some((m) => m.type !== 'summary')) {
    throw new ToolInputError(`metric "${name}" is a summary: its quantiles are the client's own, per series, and cannot be combined into a series over time; coral_query_telemetry_metrics shows its latest quantiles`);
  }
  if (same.length > 0) return;
  const names = [...new Set(held.filter((m) => m.type !== 'summary').map((m) => m.metricName))];
  const where = `${a.service ? `${a.service}'s` : 'the colony\'s'} data in the window`;
  if (names.length === 0) throw new ToolInputError(`metric "${name}" is not in ${where}, which holds no metrics; widen time_range${a.service ? ', or drop service' : ''}`);
  const closest = closestNames(name, names).slice(0, 6);
  throw new ToolInputError(`metric "${name}" is not in ${where}. Closest of the ${names.length} it holds: ${closest.join(', ')}${names.length > closest.length ? ' (coral_query_telemetry_metrics lists them all)' : ''}`);
}

/**
 * A metric by name: gauges per step, monotonic sums as rates, histograms as a quantile, each with its
 * unit. An automatic step is widened to the metric's reporting interval (a gauge sent every minute
 * has no value in half of 30-second steps); the points read cover the wider grid too (the read reaches
 * an hour before the grid, more than any nice step below a day is wider).
 */
async function metricSeries(ctx: ToolContext, a: Args, asked: StepGrid, auto: boolean, range: ToolWindow): Promise<Charted> {
  const name = a.metric ?? '';
  const all: MetricPoints = await ctx.store.metricPoints({ ...filterOf(a, asked), metric: name, groupBy: a.group_by });
  if (all.numbers.length === 0 && all.histograms.length === 0) await refuseUnknownMetric(ctx, a, asked, name);
  const interval = auto ? reportingInterval([...all.numbers, ...all.histograms]) : null;
  const grid = interval !== null && stepForInterval(interval) > asked.stepNs ? gridOf(range, stepForInterval(interval)) : asked;
  const inGrid = (p: { timeNs: bigint }) => p.timeNs > grid.startNs && p.timeNs <= gridEndNs(grid);
  const histogram = all.histograms.length > all.numbers.length;
  const points: (NumberPointRow | HistogramPointRow)[] = histogram ? all.histograms : all.numbers;
  const source = chooseSource(points.filter(inGrid).map((p) => ({ source: p.source, samples: 1 })));
  const mine = points.filter((p) => p.source === (source ?? p.source));
  const first = mine.find(inGrid) ?? mine[0];
  const shape: MetricShape = histogram ? 'quantile' : first ? shapeOf(first as NumberPointRow) : 'gauge';
  const metricType = histogram ? 'histogram' : ((first as NumberPointRow | undefined)?.metricType ?? null);
  if (a.quantile !== undefined && shape !== 'quantile') throw new ToolInputError(`quantile is for a histogram metric; "${name}" is a ${metricType ?? 'gauge'}`);
  if (a.aggregate !== undefined && shape !== 'gauge') throw new ToolInputError(`aggregate is for a gauge (or an up-down sum); "${name}" is ${shape === 'rate' ? 'a counter, charted as its rate per second (summed)' : 'a histogram, charted as a quantile'}`);
  const aggregate: Aggregate | null = shape === 'gauge' ? (a.aggregate ?? (metricType === 'sum' ? 'sum' : 'avg')) : null;
  const quantile = shape === 'quantile' ? (a.quantile ?? 0.95) : null;
  const values = (ps: readonly (NumberPointRow | HistogramPointRow)[]) => (shape === 'quantile'
    ? quantileSteps(ps as HistogramPointRow[], grid, quantile ?? 0.95)
    : shape === 'rate' ? rateSteps(ps as NumberPointRow[], grid) : gaugeSteps(ps as NumberPointRow[], grid, aggregate ?? 'avg'));
  const unit = first?.unit ?? '';
  const out: Charted = { grid, series: [], unit: shape === 'rate' ? `${unit || '1'}/s` : unit, shape, source, metricType, aggregate, quantile, heatmap: null };
  const samples = (ps: readonly { timeNs: bigint }[]) => ps.filter(inGrid).length;
  if (a.group_by === undefined) {
    out.series = [{ label: a.service ?? name, group: null, other: false, groups: 1, samples: samples(mine), points: values(mine) }];
    return out;
  }
  // Groups ranked by their mean over the window (the largest first): a metric has no volume to rank by.
  const byGroup = new Map<string | null, (NumberPointRow | HistogramPointRow)[]>();
  for (const p of mine) {
    const list = byGroup.get(p.group);
    if (list) list.push(p);
    else byGroup.set(p.group, [p]);
  }
  const mean = (v: (number | null)[]) => {
    const seen = v.filter((x): x is number => x !== null);
    return seen.length === 0 ? -Infinity : seen.reduce((s, x) => s + x, 0) / seen.length;
  };
  const ranked = [...byGroup].map(([group, ps]) => ({ group, ps, points: values(ps) }))
    .filter((g) => samples(g.ps) > 0)
    .sort(byLargest((g) => mean(g.points)));
  const kept = ranked.slice(0, a.limit);
  const folded = ranked.slice(a.limit);
  out.series = kept.map((g) => ({ label: groupLabel(g.group), group: g.group, other: false, groups: 1, samples: samples(g.ps), points: g.points }));
  if (folded.length > 0) {
    const rest = folded.flatMap((g) => g.ps);
    out.series.push({ label: otherLabel(folded.length), group: null, other: true, groups: folded.length, samples: samples(rest), points: values(rest) });
  }
  return out;
}

const stats = (points: readonly (number | null)[]) => {
  const seen = points.filter((x): x is number => x !== null);
  const range = extent(seen);
  return { min: range?.min ?? null, max: range?.max ?? null, last: seen.length ? seen[seen.length - 1] : null };
};

/** A point for people and the model: whole numbers as they are, others to three significant digits. */
function num(v: number | null, shape: Charted['shape']): string {
  if (v === null) return '-';
  if (shape === 'duration') return formatMs(v);
  if (shape === 'ratio') return `${Number((v * 100).toPrecision(3))}%`;
  if (Number.isInteger(v)) return formatCount(v);
  return String(Number(v.toPrecision(3)));
}

const hhmm = (ns: bigint) => nsToIso(ns).slice(11, 16);
/** A clock time to the grid's precision: seconds once steps are finer than a minute. */
const clock = (ns: bigint, grid: StepGrid) => nsToIso(ns).slice(11, grid.stepNs % 60_000_000_000n === 0n ? 16 : 19);

function gapLine(g: GapRun, grid: StepGrid): string {
  const span = `${clock(stepStartNs(grid, g.first), grid)}-${clock(stepStartNs(grid, g.last + 1), grid)} UTC`;
  return g.first === g.last ? `step ${g.first} (${span})` : `steps ${g.first}-${g.last} (${span})`;
}


function subject(a: Args, c: Charted): string {
  const what = a.signal === 'metric'
    ? `${a.metric} (${c.shape === 'rate' ? 'counter, rate per second' : c.shape === 'quantile' ? `histogram, P${Number(((c.quantile ?? 0.95) * 100).toPrecision(4))}` : `${c.metricType === 'sum' ? 'up-down counter' : 'gauge'}, ${c.aggregate ?? 'avg'} of its series`})`
    : SIGNAL_WORDS[a.signal];
  const whose = a.service ?? 'every service';
  const narrowed = [a.operation ? `operation ${a.operation}` : '', ...Object.entries(a.attributes ?? {}).map(([k, v]) => `${k}=${v}`)].filter(Boolean);
  return `${what} of ${whose}${narrowed.length ? ` (${narrowed.join(', ')})` : ''}${a.group_by ? ` by ${a.group_by}` : ''}${c.source ? ` ${tag(c.source)}` : ''}`;
}

export const timeseriesTool = defineTool({
  name: 'coral_query_timeseries',
  title: 'A signal over time',
  description:
    'Recommended: how a signal moved over the window, as points per step (automatic: 60-120 points; or step), to see when a change began and its shape: ' +
    'requests, errors, error_rate, p50/p95/p99 latency (exact, from spans), latency_heatmap (spans per latency band and step), any metric the colony holds by name (gauges, counters as rates per second, histograms as a quantile, with its unit), and logs (records per severity). ' +
    'Narrow by service, operation and attribute values; group_by an attribute (k8s.pod.name, service.version, service.name) for its largest series and the rest as "other". ' +
    'Steps where nothing was sent are gaps, not zeros; with a service, the onset where coral_query_summary sees its change begin is marked. ' +
    'Example: {"service": "payment", "signal": "errors"} or {"service": "checkout", "signal": "p95", "group_by": "k8s.pod.name"} or {"service": "ad", "signal": "metric", "metric": "process.memory.usage"}.',
  input: {
    signal: z.enum(SIGNALS, { error: `signal must be one of: ${SIGNAL_LIST}` }).default('requests').describe(`What to chart: ${SIGNAL_LIST}; default requests`),
    service: serviceName.optional().describe('Service name as in service.name, e.g. "checkout"; without it, every service together'),
    metric: text('metric').min(1, { error: 'metric must not be empty' }).optional().describe('With signal "metric": the metric\'s name as sent, e.g. process.memory.usage, http.server.request.duration'),
    operation: text('operation').min(1, { error: 'operation must not be empty' }).optional()
      .describe('Only this operation, as coral_query_summary names it ("GET /api/cart", "SELECT orders"), a span name or an HTTP route'),
    attributes: attributeFilter.optional(),
    group_by: attributeKey('group_by').optional().describe('One series per value of this attribute (k8s.pod.name, service.version, http.route, service.name), the largest first, the rest as one "other" series'),
    limit: limit(5, 20).describe('With group_by: how many series apart (1-20, default 5), the rest folded into "other"'),
    quantile: z.number({ error: 'quantile must be a number between 0 and 1, e.g. 0.95' }).gt(0, { error: 'quantile must be more than 0' }).lt(1, { error: 'quantile must be less than 1' }).optional()
      .describe('For a histogram metric: which quantile per step (default 0.95)'),
    aggregate: z.enum(AGGREGATES, { error: `aggregate must be one of: ${AGGREGATES.join(', ')}` }).optional()
      .describe('For a gauge metric: how its series (processes, pods) combine per step: avg (default; sum for an up-down counter), sum, min or max'),
    time_range: timeRange.default('1h'),
    ...windowFields,
    step: z.string().regex(STEP_RE, { error: 'step must be a duration like 10s, 1m, 5m or 1h' }).optional()
      .describe('The width of a point: 10s, 1m, 5m, 1h (at least 1s, at most 2000 points over the window); default: automatic, 60-120 points'),
  },
  output: timeseriesOutput,
  run: async (ctx, raw) => {
    const a = raw as Args;
    refuseMismatches(a);
    const range = await windowOf(ctx, a);
    const { stepNs: asked, auto } = stepOfArgs(a, range);
    const span = range.toNs - range.fromNs;
    const prevFromNs = range.fromNs - span;
    const [c, minutes] = await Promise.all([
      SPAN_SIGNALS.includes(a.signal) ? spanSeries(ctx, a, gridOf(range, asked)) : a.signal === 'logs' ? logSeries(ctx, a, gridOf(range, asked)) : metricSeries(ctx, a, gridOf(range, asked), auto, range),
      // The summary's minute read over the same two windows, the service's rows only (the rest it would read are other services').
      a.service ? ctx.store.minuteSeries({ fromNs: prevFromNs, toNs: range.toNs }, a.service) : Promise.resolve([]),
    ]);
    const { grid } = c;
    const stepNs = grid.stepNs;
    let onset: { atNs: bigint; step: number | null; metric: OnsetMetric } | null = null;
    if (a.service) {
      for (const metric of ONSET_METRICS[a.signal] ?? (['errors', 'latency'] as OnsetMetric[])) {
        const atNs = serviceOnsetNs(minutes, a.service, metric, Number(span / 1_000_000_000n), prevFromNs);
        if (atNs !== null) {
          onset = { atNs, step: onsetStep(grid, atNs), metric };
          break;
        }
      }
    }
    const gaps = gapRuns(c.series.map((s) => s.points), grid.count);
    const series = c.series.map((s) => ({ ...s, ...stats(s.points) }));
    const empty = series.every((s) => s.samples === 0);
    const unknown = empty ? ((await unknownServiceLine(ctx, a.service)) ?? null) : null;
    const stepText = formatStep(stepNs);
    const lines: string[] = [`Time series: ${subject(a, c)}, ${windowHeading(range)}, ${grid.count} steps of ${stepText}${auto ? ' (automatic)' : ''}; unit ${c.unit || '(none)'}.`];
    if (empty) {
      lines.push(unknown ?? `Nothing was sent in ${range.phrase}${a.attributes || a.operation ? ' that matches' : ''}: every step is a gap.`);
    } else {
      for (const s of series) {
        lines.push(`  ${s.label}: ${formatCount(s.samples)} ${c.shape === 'heatmap' || SPAN_SIGNALS.includes(a.signal) ? 'spans' : a.signal === 'logs' ? 'records' : 'points'}; min ${num(s.min, c.shape)}, max ${num(s.max, c.shape)}, latest ${num(s.last, c.shape)} ${sparkline(s.points, fromZero(c.shape) ? { min: 0 } : {})}`);
        lines.push(`    per step, oldest first (- = nothing sent): ${s.points.map((v) => num(v, c.shape)).join(' ')}`);
      }
      if (c.heatmap) {
        const h = c.heatmap;
        const top = extent(h.cells.flatMap((x) => x ?? []))?.max ?? -Infinity;
        lines.push('  latency bands, slowest first: spans in the window, then per step on one scale (structured heatmap.cells has the counts):');
        for (let b = h.bands.length - 1; b >= 0; b--) {
          const row = h.cells.map((cell) => (cell === null ? null : cell[b]));
          const spans = row.reduce<number>((n, v) => n + (v ?? 0), 0);
          if (spans > 0) lines.push(`    ${formatMs(h.bands[b].lowMs)}-${formatMs(h.bands[b].highMs)}: ${formatCount(spans)} ${sparkline(row, { min: 0, max: top })}`);
        }
      }
    }
    if (onset) {
      const where = onset.step === null ? 'before the steps shown' : `step ${onset.step} of ${grid.count}`;
      lines.push(`Onset: ${a.service}'s ${onset.metric} began to rise ~${hhmm(onset.atNs)} UTC (${where}), where coral_query_summary's change detection sees it begin.`);
    }
    if (!empty && gaps.length > 0) lines.push(`Nothing was sent in ${gaps.slice(0, 5).map((g) => gapLine(g, grid)).join(', ')}${gaps.length > 5 ? ` and ${gaps.length - 5} more runs` : ''}.`);
    return {
      text: boundLines(lines, ctx.maxResponseChars, 'use a longer step, a shorter time_range, or a lower limit.').text,
      structured: {
        signal: a.signal, metric: a.metric ?? null, metricType: c.metricType, shape: c.shape, unit: c.unit,
        service: a.service ?? null, operation: a.operation ?? null, attributes: a.attributes ?? {}, groupBy: a.group_by ?? null,
        aggregate: c.aggregate, quantile: c.quantile, source: c.source,
        window: windowJson(range), from: nsToIso(range.fromNs), to: nsToIso(range.toNs),
        step: { text: stepText, ms: Number(stepNs / 1_000_000n), auto, count: grid.count, start: nsToIso(grid.startNs), end: nsToIso(gridEndNs(grid)) },
        times: Array.from({ length: grid.count }, (_, k) => nsToIso(stepStartNs(grid, k))),
        series, heatmap: c.heatmap,
        gaps: gaps.map((g) => ({ firstStep: g.first, lastStep: g.last, from: nsToIso(stepStartNs(grid, g.first)), to: nsToIso(stepStartNs(grid, g.last + 1)) })),
        onset: onset && { time: nsToIso(onset.atNs), step: onset.step, metric: onset.metric }, unknownService: unknown,
      },
    } satisfies ToolOutput;
  },
});
