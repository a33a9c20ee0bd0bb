import { z } from 'zod';
import { formatCount, formatMs, formatPercent } from '../../core/format.js';
import { nsToIso } from '../../core/time.js';
import { COMPARES, type Breakdown, type KeyStat, type ValueStat, rankBreakdown } from '../unified/breakdown.js';
import { instanceOutliers, outlierLine } from '../unified/instance-outliers.js';
import { tag } from '../unified/render-tree.js';
import { MAX_MIN_DURATION_MS, type ToolWindow, serviceName, text, timeRange, windowFields, windowJson, windowOf, windowOutput } from './inputs.js';
import { unknownServiceLine } from './service-hint.js';
import { boundLines } from './text.js';
import { defineTool } from './types.js';

const valueOut = z.object({
  value: z.string(), sources: z.array(z.string()), anomaly: z.number(), baseline: z.number(), anomalyShare: z.number(), baselineShare: z.number(),
  z: z.number(), spans: z.number(), errorRate: z.number(), othersErrorRate: z.number().nullable(), p95Ms: z.number().nullable(), othersP95Ms: z.number().nullable(),
});

const keyOut = z.object({ key: z.string(), label: z.string(), scope: z.enum(['resource', 'span']), values: z.number(), score: z.number(), top: z.array(valueOut) });

const outlierOut = z.object({
  value: z.string(), sources: z.array(z.string()), spans: z.number(), errorRate: z.number(), othersErrorRate: z.number(),
  p95Ms: z.number().nullable(), othersP95Ms: z.number().nullable(), slower: z.boolean(), failing: z.boolean(),
});

interface Sides {
  /** The anomalous spans, in a sentence. */
  anomaly: string;
  baseline: string;
  /** The same, short, inside a value's line. */
  short: string;
  shortBaseline: string;
}

/** What the anomalous and the baseline spans are, for people. */
function sidesText(b: Breakdown, w: ToolWindow): Sides {
  switch (b.compare) {
    case 'errors':
      return { anomaly: 'the failing spans', baseline: 'the rest', short: 'failing', shortBaseline: 'the rest' };
    case 'slow':
      return { anomaly: `the spans slower than ${formatMs(b.thresholdMs ?? 0)}`, baseline: 'the rest', short: 'slow', shortBaseline: 'the rest' };
    case 'window':
      return { anomaly: w.phrase, baseline: `the ${w.length} before`, short: 'this window', shortBaseline: 'the one before' };
  }
}

/** "pods", "gRPC statuses". */
const labels = (label: string) => `${label}${label.endsWith('s') ? 'es' : 's'}`;

const sources = (v: { sources: readonly string[] }) => v.sources.map((s) => tag(s as 'ebpf' | 'otlp')).join('');

function valueText(v: ValueStat, k: KeyStat, sides: Sides): string {
  const latency = v.p95Ms !== null && v.othersP95Ms !== null ? `P95 ${formatMs(v.p95Ms)} vs ${formatMs(v.othersP95Ms)}` : null;
  const errors = v.othersErrorRate !== null ? `${formatPercent(v.errorRate)} errors vs ${formatPercent(v.othersErrorRate)}` : null;
  const against = [latency, errors].filter((x) => x !== null).join(', ');
  return `${v.value} ${sources(v)}: ${formatPercent(v.anomalyShare)} of ${sides.short} vs ${formatPercent(v.baselineShare)} of ${sides.shortBaseline}`
    + `; ${formatCount(v.spans)} spans${against ? `, ${against} for the other ${labels(k.label)}` : ''}`;
}

/** The same spans under another key (a pod's host, its node): said once, on the first key's line. */
const sameSpans = (a: ValueStat, b: ValueStat) => a.anomaly === b.anomaly && a.baseline === b.baseline && a.spans === b.spans;

function keyLines(keys: readonly KeyStat[], sides: Sides): string[] {
  const lines: string[] = [];
  const shown: { key: KeyStat; line: number; same: string[] }[] = [];
  for (const k of keys) {
    const [best, ...more] = k.top;
    const twin = shown.find((x) => sameSpans(x.key.top[0], best));
    if (twin) {
      twin.same.push(`${k.label} ${best.value}`);
      continue;
    }
    shown.push({ key: k, line: lines.length, same: [] });
    lines.push(`  ${shown.length}. ${k.label} (${k.key}), ${formatCount(k.values)} ${k.values === 1 ? 'value' : 'values'}: ${valueText(best, k, sides)}`);
    lines.push(...more.map((v) => `     also ${valueText(v, k, sides)}`));
  }
  for (const x of shown) if (x.same.length > 0) lines[x.line] += ` (the same spans: ${x.same.join(', ')})`;
  return lines;
}

/** The next call: the traces behind the anomaly. */
function nextStep(service: string, b: Breakdown): string {
  if (b.compare === 'slow' && b.thresholdMs !== null) {
    return `Next: coral_query_traces {"service": "${service}", "min_duration_ms": ${Math.round(b.thresholdMs)}, "order": "duration"} to read the slow requests.`;
  }
  if (b.compare === 'errors') return `Next: coral_query_traces {"service": "${service}"} to read the failing requests (failing first).`;
  return `Next: coral_query_summary {} for what else changed, or coral_query_breakdown {"service": "${service}", "compare": "slow"}.`;
}

export const breakdownTool = defineTool({
  name: 'coral_query_breakdown',
  title: 'What the bad requests have in common',
  description:
    'Recommended: once you know which service is unwell, ask what its failing or slow requests have in common (Honeycomb BubbleUp-style). Compares the anomalous spans (failing, slower than the P95, or the whole window against the one before) with the rest and ranks the attribute values most over-represented in them: ' +
    'instance, pod, host, node, version, deployment, zone, region (resource attributes) and route, method, status code, RPC method, server address, peer service, database, messaging destination, user agent (span attributes), from eBPF and SDK spans alike; and the instances whose P95 or error rate stands out from their siblings. ' +
    'Example: {"service": "checkout"} or {"service": "checkout", "compare": "slow", "operation": "GET /api/cart"}.',
  input: {
    service: serviceName,
    operation: text('operation').min(1, { error: 'operation must not be empty' }).optional()
      .describe('Only this operation, as coral_query_summary names it ("GET /api/cart", "SELECT orders"), a span name or an HTTP route'),
    compare: z.enum(['auto', ...COMPARES], { error: `compare must be one of: auto, ${COMPARES.join(', ')}` }).default('auto')
      .describe('errors: failing spans vs the rest; slow: spans slower than the P95 (or threshold_ms) vs the rest; window: the window vs the one before; auto (default): errors when failures are material, else slow'),
    threshold_ms: z.number({ error: 'threshold_ms must be a number of milliseconds' }).positive({ error: 'threshold_ms must be more than 0' })
      .max(MAX_MIN_DURATION_MS, { error: `threshold_ms must be at most ${MAX_MIN_DURATION_MS} (30 days)` }).optional()
      .describe('For compare "slow": what counts as slow, instead of the window\'s P95'),
    time_range: timeRange.default('30m'),
    ...windowFields,
  },
  output: {
    service: z.string(), operation: z.string().nullable(), window: windowOutput, from: z.string(), to: z.string(), baselineFrom: z.string().nullable(),
    compare: z.enum(COMPARES), auto: z.boolean(), thresholdMs: z.number().nullable(),
    windowSpans: z.number(), windowErrors: z.number(), windowP95Ms: z.number().nullable(), anomalySpans: z.number(), baselineSpans: z.number(),
    keys: z.array(keyOut),
    instances: z.object({ key: z.string(), label: z.string(), instances: z.number(), outliers: z.array(outlierOut) }).nullable(),
    instanceLine: z.string().nullable(),
    nextStep: z.string(),
  },
  run: async (ctx, a) => {
    const range = await windowOf(ctx, a);
    const compare = a.compare === 'auto' ? undefined : a.compare;
    const baseline = compare === 'window' ? { fromNs: 2n * range.fromNs - range.toNs, toNs: range.fromNs } : undefined;
    const rows = await ctx.store.breakdownRows({ service: a.service, operation: a.operation, range, baseline });
    const b = rankBreakdown(rows, { compare, thresholdMs: a.threshold_ms });
    const instances = instanceOutliers(rows);
    const instanceLine = instances ? outlierLine(instances) : null;
    const subject = `${a.service}${a.operation ? ` (${a.operation})` : ''}`;
    const lines: string[] = [];
    let next: string;
    if (b.windowSpans === 0) {
      const unknown = await unknownServiceLine(ctx, a.service);
      lines.push(`No ${a.operation ? 'spans' : 'server or consumer spans'} for ${subject} in ${range.phrase}.`);
      next = unknown ?? `Hint: widen time_range${a.operation ? ', or drop operation' : ''}; coral_query_summary names each service's operations.`;
      lines.push(next);
    } else {
      const what = sidesText(b, range);
      const p95 = b.windowP95Ms !== null ? `, P95 ${formatMs(b.windowP95Ms)}` : '';
      lines.push(`Breakdown of ${subject}, ${range.label}: ${formatCount(b.windowSpans)} spans, ${formatPercent(b.windowErrors / b.windowSpans)} failing${p95}.`);
      const why = b.auto ? (b.compare === 'errors' ? ' (auto: failures are material)' : ' (auto: few failures)') : '';
      lines.push(`Comparing ${what.anomaly} (${formatCount(b.anomalySpans)}) with ${what.baseline} (${formatCount(b.baselineSpans)})${why}.`);
      if (b.anomalySpans === 0 || b.baselineSpans === 0) {
        lines.push(b.anomalySpans === 0 ? `Nothing to compare: no spans among ${what.anomaly}.` : `Nothing to compare against: every span is among the ${what.anomaly}.`);
      } else if (b.keys.length === 0) {
        lines.push(`Nothing stands out: no attribute value is over-represented in ${what.anomaly} beyond what the sample sizes allow.`);
      } else {
        lines.push('', `Over-represented in ${what.anomaly}, strongest first:`);
        lines.push(...keyLines(b.keys, what));
      }
      if (instanceLine) lines.push('', `Instances that stand out from their siblings: ${instanceLine}.`);
      else if (instances) lines.push('', `No ${instances.label} stands out from its siblings (${instances.instances} ${labels(instances.label)}).`);
      next = nextStep(a.service, b);
      lines.push('', next);
    }
    return {
      text: boundLines(lines, ctx.maxResponseChars, 'give an operation to narrow it.').text,
      structured: {
        service: a.service, operation: a.operation ?? null, window: windowJson(range), from: nsToIso(range.fromNs), to: nsToIso(range.toNs), baselineFrom: baseline ? nsToIso(baseline.fromNs) : null,
        ...b, instances, instanceLine, nextStep: next,
      },
    };
  },
});
