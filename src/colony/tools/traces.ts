import { z } from 'zod';
import { plural } from '../../core/format.js';
import { nsToIso } from '../../core/time.js';
import type { SpanRecord } from '../store/queries/spans.js';
import type { Source } from '../store/rows.js';
import { type TraceTree, type TreeNode, buildTraceTree } from '../unified/span-tree.js';
import { renderTree } from '../unified/render-tree.js';
import { ORDER_DESCRIPTIONS, TRACE_ORDERS, type TraceDigest, type TraceOrder, digestTrace, orderTraces, sourceMix, tracesAnalysis } from '../unified/trace-digest.js';
import { MAX_MIN_DURATION_MS, limit, serviceName, timeRange, traceIdField, type ToolWindow, windowFields, windowJson, windowOf, windowOutput } from './inputs.js';
import { unknownServiceLine } from './service-hint.js';
import { type ToolContext, type ToolOutput, defineTool } from './types.js';

const treeNode: z.ZodType<TreeNode> = z.object({
  spanId: z.string(),
  parentSpanId: z.string(),
  service: z.string(),
  name: z.string(),
  kind: z.string(),
  source: z.enum(['ebpf', 'otlp']),
  offsetMs: z.number(),
  durationMs: z.number(),
  selfMs: z.number(),
  error: z.boolean(),
  statusMessage: z.string(),
  httpStatusCode: z.number().nullable(),
  rpcStatusCode: z.number().nullable(),
  slow: z.boolean(),
  orphan: z.boolean(),
  merged: z.object({
    spanId: z.string(), queueMs: z.number(), durationMs: z.number(), statusCode: z.string(),
    httpStatusCode: z.number().nullable(), rpcStatusCode: z.number().nullable(),
  }).nullable(),
  attributes: z.record(z.string(), z.unknown()),
  events: z.array(z.unknown()),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string() })).describe('Spans this one links to (trace and span ids), often in other traces'),
  get children() {
    return z.array(treeNode);
  },
}) as z.ZodType<TreeNode>;

const traceOut = z.object({
  traceId: z.string(),
  start: z.string(),
  startNs: z.string(),
  durationMs: z.number(),
  spanCount: z.number(),
  mergedCount: z.number(),
  services: z.array(z.string()),
  depth: z.number(),
  incomplete: z.boolean(),
  resources: z.record(z.string(), z.record(z.string(), z.unknown())),
  roots: z.array(treeNode),
  rootService: z.string(),
  rootName: z.string(),
  errorCount: z.number(),
  errorServices: z.array(z.string()),
  servicesByErrors: z.array(z.string()).describe('The services touched, those with errors first'),
  sourceMix: z.string(),
});

const tracesOutput = {
  traces: z.array(traceOut),
  matchedTraces: z.number(),
  order: z.enum(TRACE_ORDERS),
  analysis: z.string(),
  deduplicated: z.boolean(),
  truncated: z.boolean(),
  /** The window searched; absent for a trace asked by id (found wherever it is). */
  window: windowOutput.optional(),
};

export function treeJson(t: TraceTree) {
  return { ...t, start: nsToIso(t.startNs), startNs: t.startNs.toString() };
}

/** A trace as the list returns it: the tree plus what an investigator reads first. */
export function listedTraceJson(t: TraceTree, d: TraceDigest) {
  return {
    ...treeJson(t),
    rootService: d.rootService, rootName: d.rootName, errorCount: d.errorCount, errorServices: d.errorServices,
    servicesByErrors: d.services, sourceMix: sourceMix(d),
  };
}

/** Far past any list a person pages through; it keeps a hostile offset from asking the store for a huge skip. */
const MAX_TRACE_OFFSET = 100_000;

const STORE_ORDER = { errors: 'errors', duration: 'slowest', recent: 'recent' } as const;

/** `Slow Traces for service 'checkout' (last 1h, > 500ms):`, as RFD 067 writes it. */
function listHeader(a: TraceArgs, order: TraceOrder, w: ToolWindow): string {
  const what = a.min_duration_ms !== undefined ? 'Slow Traces' : 'Traces';
  const filters = [w.label, ...(a.min_duration_ms !== undefined ? [`> ${a.min_duration_ms}ms`] : [])];
  return `${what}${a.service ? ` for service '${a.service}'` : ''} (${filters.join(', ')}), ${ORDER_DESCRIPTIONS[order]}:`;
}

type TraceArgs = z.infer<z.ZodObject<typeof traceInput>>;

/** Finds traces and renders each as one tree, within the response budget. */
async function traces(ctx: ToolContext, a: TraceArgs, view: { source?: Source; dedupe: boolean; label: string }): Promise<ToolOutput> {
  let found: { traceId: string; spans: SpanRecord[] }[];
  let matched: number;
  // A trace asked by id is found wherever it is: no window.
  let range: ToolWindow | undefined;
  if (a.trace_id) {
    const spans = await ctx.store.getTrace(a.trace_id);
    found = spans.length > 0 ? [{ traceId: a.trace_id.toLowerCase(), spans }] : [];
    matched = found.length;
  } else {
    range = await windowOf(ctx, a);
    const res = await ctx.store.searchTraces({
      range,
      service: a.service,
      minDurationMs: a.min_duration_ms,
      source: view.source,
      maxTraces: a.max_traces,
      offset: a.offset,
      order: STORE_ORDER[a.order],
    });
    found = res.traces;
    matched = res.matchedTraces;
  }
  const items = orderTraces(
    found.map((t) => {
      const tree = buildTraceTree(t.traceId, view.source ? t.spans.filter((s) => s.source === view.source) : t.spans, { dedupe: view.dedupe });
      return { tree, digest: digestTrace(tree) };
    }),
    a.order,
  );
  if (items.length === 0 && (a.offset ?? 0) > 0) {
    return { text: `No more traces: the list has fewer than ${(a.offset ?? 0) + 1}.`, structured: { traces: [], matchedTraces: 0, order: a.order, analysis: '', deduplicated: view.dedupe, truncated: false, ...(range ? { window: windowJson(range) } : {}) } };
  }
  if (items.length === 0) {
    const unknown = await unknownServiceLine(ctx, a.trace_id ? undefined : a.service);
    const where = !range ? `with id ${a.trace_id}` : `${a.service ? `for ${a.service} ` : ''}in ${range.phrase}${a.min_duration_ms !== undefined ? ` slower than ${a.min_duration_ms}ms` : ''}`;
    return {
      text: `No traces found ${where}${view.source ? ` (${view.label} spans only)` : ''}.\n${unknown ?? 'Hint: widen time_range or lower min_duration_ms.'}`,
      structured: { traces: [], matchedTraces: 0, order: a.order, analysis: '', deduplicated: view.dedupe, truncated: false, ...(range ? { window: windowJson(range) } : {}) },
    };
  }
  // Share the budget between traces; a long trace is cut, never the list of traces.
  const perTrace = Math.max(400, Math.floor(ctx.maxResponseChars / items.length));
  const maxLines = Math.max(3, Math.floor(perTrace / 70));
  const lines: string[] = [];
  let truncated = false;
  if (range) {
    lines.push(listHeader(a, a.order, range));
    const from = a.offset ?? 0;
    if (matched > items.length) lines.push(from > 0 ? `Showing traces ${from + 1}-${from + items.length} of ${matched} matching traces.` : `Showing ${items.length} of ${matched} matching traces.`);
    lines.push('');
  }
  for (const { tree, digest } of items) {
    const rendered = renderTree(tree, maxLines);
    if (digest.errorCount > 0) rendered[0] += ` · ${plural(digest.errorCount, 'error span')} (${digest.errorServices.join(', ')})`;
    if (tree.spanCount > maxLines) truncated = true;
    lines.push(...rendered, '');
  }
  const analysis = tracesAnalysis(items);
  lines.push(analysis);
  return {
    text: lines.join('\n').trimEnd(),
    structured: { traces: items.map((i) => listedTraceJson(i.tree, i.digest)), matchedTraces: matched, order: a.order, analysis, deduplicated: view.dedupe, truncated, ...(range ? { window: windowJson(range) } : {}) },
  };
}

const traceInput = {
  trace_id: traceIdField.optional(),
  service: serviceName.optional().describe('Only traces in which this service took part'),
  time_range: timeRange.default('1h'),
  ...windowFields,
  min_duration_ms: z.number({ error: 'min_duration_ms must be a number of milliseconds' }).min(0, { error: 'min_duration_ms must be 0 or more' }).max(MAX_MIN_DURATION_MS, { error: `min_duration_ms must be at most ${MAX_MIN_DURATION_MS} (30 days)` }).optional().describe('Only traces with a span at least this slow; the slowest come first'),
  max_traces: limit(10, 50, 'max_traces').describe('How many traces, 1 to 50 (default 10); each is returned whole'),
  order: z.enum(TRACE_ORDERS, { error: `order must be one of: ${TRACE_ORDERS.join(', ')}` }).default('errors')
    .describe('errors (default): failing traces first, then the slowest; duration: slowest first; recent: most recent first'),
  offset: z.number({ error: 'offset must be a number of traces' }).int({ error: 'offset must be a whole number' }).min(0, { error: 'offset must be 0 or more' }).max(MAX_TRACE_OFFSET, { error: `offset must be at most ${MAX_TRACE_OFFSET}` }).optional()
    .describe('Traces to skip in this order, to read the list page by page (default 0)'),
};

export const queryTraces = defineTool({
  name: 'coral_query_traces',
  title: 'Traces (eBPF + OTLP, merged)',
  description:
    'Recommended: whole traces as span trees built from eBPF and OTLP spans together, the same request seen by both merged into one span (OTLP kept, eBPF queue time attached), orphan subtrees and incomplete traces marked, slow spans (← SLOW) and errors flagged, each span tagged [eBPF] or [OTLP]. ' +
    'Example: {"service": "checkout", "min_duration_ms": 500} or {"trace_id": "5b8efff798038103d269b633813fc60c"}.',
  input: traceInput,
  output: tracesOutput,
  run: (ctx, a) => traces(ctx, a, { dedupe: true, label: 'all' }),
});

function plumbingTraces(name: string, title: string, source: Source, deprecatedAliasOf?: string) {
  const label = source === 'ebpf' ? 'eBPF' : 'OTLP';
  return defineTool({
    name,
    title,
    description: `Advanced: traces with ${label} spans only, no merging with the other source. Prefer coral_query_traces.`,
    input: traceInput,
    output: tracesOutput,
    deprecatedAliasOf,
    run: async (ctx, a) => {
      const out = await traces(ctx, a, { source, dedupe: false, label });
      return deprecatedAliasOf ? { ...out, text: `Note: ${name} is deprecated; use ${deprecatedAliasOf}.\n${out.text}` } : out;
    },
  });
}

export const ebpfTraces = plumbingTraces('coral_query_ebpf_traces', 'eBPF traces', 'ebpf');
export const telemetrySpans = plumbingTraces('coral_query_telemetry_spans', 'OTLP spans', 'otlp');
export const deprecatedBeylaTraces = plumbingTraces('coral_query_beyla_traces', 'eBPF traces (old name)', 'ebpf', 'coral_query_ebpf_traces');

export const getTraceById = defineTool({
  name: 'coral_get_trace_by_id',
  title: 'One trace, every span',
  description: 'Advanced: one trace with every stored span from both sources, eBPF twins not merged (coral_query_traces merges them). Example: {"trace_id": "5b8efff798038103d269b633813fc60c"}.',
  input: { trace_id: traceIdField },
  output: tracesOutput,
  run: (ctx, a) => traces(ctx, { trace_id: a.trace_id, time_range: '1h', max_traces: 1, order: 'errors' }, { dedupe: false, label: 'all' }),
});
