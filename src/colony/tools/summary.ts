import { z } from 'zod';
import { formatMs, formatPercent } from '../../core/format.js';
import { nsToIso } from '../../core/time.js';
import { SATURATION_GAUGES, type ServiceChange, compareServices, standOut } from '../unified/summary.js';
import { attribute } from '../unified/attribution.js';
import { errorOrigins } from '../unified/error-origin.js';
import { SUMMARY_INSTANCE_KEYS, onlyNode, slowNodes } from '../unified/instance-evidence.js';
import { attributeNeighbours } from '../unified/neighbours.js';
import { histogramViews, spanViews } from '../unified/operations.js';
import { serviceTimes } from '../unified/self-time.js';
import { tag } from '../unified/render-tree.js';
import { intakeSilence } from '../unified/intake.js';
import { splitStreams, streamLine, summarizeStreams } from '../unified/streams.js';
import { timeRange, windowFields, windowHeading, windowJson, windowOf, windowOutput } from './inputs.js';
import { boundLines } from './text.js';
import { defineTool } from './types.js';

const change = z.object({
  service: z.string(), sources: z.array(z.string()), status: z.string(), ratePerSec: z.number(), prevRatePerSec: z.number().nullable(),
  requests: z.number(), errors: z.number(), prevRequests: z.number().nullable(), prevErrors: z.number().nullable(),
  errorRate: z.number(), prevErrorRate: z.number().nullable(), p95Ms: z.number().nullable(), prevP95Ms: z.number().nullable(),
  basis: z.string(), signals: z.array(z.string()), score: z.number(), chronic: z.boolean(), failing: z.boolean(), slower: z.boolean(),
  onset: z.string().nullable(), trigger: z.string().nullable(), explainedBy: z.string().nullable(),
});

const rate = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}/s`;
const srcTags = (c: ServiceChange) => c.sources.map((s) => tag(s as 'ebpf' | 'otlp')).join('');
/** Traces sampled per window for self time; enough for stable means, small enough to stay fast. */
const SELF_TIME_TRACES = 800;

export const summaryTool = defineTool({
  name: 'coral_query_summary',
  title: 'Where to look first',
  description:
    'Recommended: use this first. One call that tells where to look: every service\'s health, request rate, error rate and P95 latency against the preceding window (from the source that saw the most requests: eBPF histograms when the SDK samples), per-operation regressions, own (self) time versus time spent in callees, saturation (memory climbing and resetting, CPU, consumer lag, messages waiting longer between send and processing), onset times and the deploys or config changes just before them, callees that reject their callers\' calls or send no telemetry, and the services that stand out, most likely cause first. ' +
    'Example: {} or {"time_range": "15m"}.',
  input: { time_range: timeRange.default('30m').describe('The window to summarise; it is compared with the window of the same length before it'), ...windowFields },
  output: {
    window: windowOutput, from: z.string(), to: z.string(), previousFrom: z.string(),
    standOut: z.array(change),
    services: z.array(change),
    events: z.array(z.object({ time: z.string(), serviceName: z.string(), kind: z.string(), title: z.string() })),
    lookFirst: z.string(),
    /** Long-lived streaming RPCs, kept out of P95s and latency blame (unified/streams.ts). */
    streams: z.array(z.object({ service: z.string(), operation: z.string(), basis: z.string(), streams: z.number(), medianMs: z.number().nullable(), longestMs: z.number().nullable() })),
    /** Set when nothing is being received at all: then no service is named as the cause. */
    intake: z.string().nullable(),
  },
  run: async (ctx, a) => {
    const range = await windowOf(ctx, a);
    // The comparison window is the one of the same length just before, absolute windows included.
    const span = range.toNs - range.fromNs;
    const prevRange = { fromNs: range.fromNs - span, toNs: range.fromNs };
    const both = { fromNs: prevRange.fromNs, toNs: range.toNs };
    const healthRead = ctx.store.serviceHealth(range);
    // Per service that served requests, its instances and nodes (a pod or a node apart from the rest).
    const instanceReads = healthRead.then(async (hs) => {
      const served = hs.filter((h) => h.requests > 0).map((h) => h.serviceName);
      const rows = await Promise.all(served.map((service) => ctx.store.breakdownRows({ service, range, baseline: prevRange, keys: SUMMARY_INSTANCE_KEYS })));
      return new Map(served.map((service, i) => [service, rows[i]]));
    });
    const [health, spansNow, spansPrev, histNow, histPrev, callsNow, callsPrev, minutes, gauges, events, edgesNow, edgesPrev, delaysNow, delaysPrev, p95Now, p95Prev, instances, cpuNow, cpuPrev] = await Promise.all([
      healthRead,
      ctx.store.operationSpanBuckets(range),
      ctx.store.operationSpanBuckets(prevRange),
      ctx.store.operationHistograms(range),
      ctx.store.operationHistograms(prevRange),
      ctx.store.callSpans(range, SELF_TIME_TRACES),
      ctx.store.callSpans(prevRange, SELF_TIME_TRACES),
      ctx.store.minuteSeries(both),
      ctx.store.gaugePoints(both, SATURATION_GAUGES),
      ctx.store.queryEvents({ range: both, limit: 50 }),
      ctx.store.topology(range),
      ctx.store.topology(prevRange),
      ctx.store.messagingDelays(range),
      ctx.store.messagingDelays(prevRange),
      ctx.store.operationSpanP95(range),
      ctx.store.operationSpanP95(prevRange),
      instanceReads,
      ctx.store.nodeCpu(range),
      ctx.store.nodeCpu(prevRange),
    ]);
    const known = new Set(health.map((h) => h.serviceName));
    const timesNow = serviceTimes(callsNow, known);
    const timesPrev = serviceTimes(callsPrev, known);
    const opsNow = splitStreams([...spanViews(spansNow), ...histogramViews(histNow)]);
    const opsPrev = splitStreams([...spanViews(spansPrev), ...histogramViews(histPrev)]);
    const streams = summarizeStreams(opsNow.streams);
    const scored = compareServices({
      windowSec: Number(span / 1_000_000_000n), fromNs: range.fromNs, toNs: range.toNs, prevFromNs: prevRange.fromNs, health,
      opsNow: opsNow.calls, opsPrev: opsPrev.calls,
      timesNow, timesPrev, minutes, gauges, events, delaysNow, delaysPrev, spanP95: { now: p95Now, prev: p95Prev }, instances,
    });
    const attributed = attribute(scored, { timesNow, timesPrev, edgesNow, edgesPrev, events, origins: errorOrigins(callsNow) });
    const onlyOn = new Map([...instances].flatMap(([service, rows]) => {
      const node = onlyNode(rows);
      return node === null ? [] : [[service, node] as const];
    }));
    const changes = attributeNeighbours(attributed, { slowNodes: new Map([...instances].map(([service, rows]) => [service, slowNodes(rows)])), onlyOn, cpuNow, cpuPrev });
    const intake = intakeSilence(health, range.toNs);
    const top = intake ? [] : standOut(changes);
    const evs = events.slice(0, 10).map((e) => ({ time: nsToIso(e.timeNs), serviceName: e.serviceName, kind: e.kind, title: e.title }));
    const lines: string[] = [`Colony summary, ${windowHeading(range)}, compared with the ${range.length} before.`];
    if (intake) lines.push(intake.text, 'Hint: check that data reaches the colony (coral colony status), then the collector and the exporters.');
    if (top.length > 0) {
      lines.push('', 'Stand out (most likely cause first):');
      top.forEach((c, i) => lines.push(`  ${i + 1}. ${c.service} ${srcTags(c)}: ${c.status.toUpperCase()}; ${c.signals.join('; ')}`));
    } else if (changes.length > 0 && !intake) {
      lines.push('', 'Nothing stands out: no service changed beyond what its sample size allows against the previous window.');
    }
    const chronic = changes.filter((c) => c.chronic && !top.includes(c));
    if (chronic.length > 0) lines.push('', `Chronic (as bad in the previous window, not new): ${chronic.map((c) => `${c.service} ${formatPercent(c.errorRate)} errors`).join(', ')}.`);
    if (evs.length > 0) {
      lines.push('', 'Recent events:');
      for (const e of evs) lines.push(`  ${e.time} ${e.serviceName} ${e.kind}: ${e.title}`);
    }
    let lookFirst = intake?.text ?? '';
    if (top.length > 0) {
      const first = top[0];
      const when = first.onset ? `; started ~${first.onset.slice(11, 16)}` : '';
      const trigger = first.trigger ? `, just after the ${first.trigger}` : '';
      // A fixed window goes into the next calls too: without it they would count back from now.
      const args = `{"service": "${first.service}"${range.absolute ? `, "start": "${nsToIso(range.fromNs)}", "end": "${nsToIso(range.toNs)}"` : ''}}`;
      lookFirst = `Where to look first: ${first.service} (${first.signals[0]})${when}${trigger}. Next: coral_query_metrics ${args} and coral_query_traces ${args}.`;
      lines.push('', lookFirst);
    }
    if (changes.length > 0) {
      lines.push('', 'All services (rate, errors, P95 from the source that saw the most; previous window in brackets):');
      for (const c of changes) {
        lines.push(`  ${c.service} ${srcTags(c)} ${c.status}: ${rate(c.ratePerSec)}${c.prevRatePerSec !== null ? ` [${rate(c.prevRatePerSec)}]` : ''}, ${formatPercent(c.errorRate)}${c.prevErrorRate !== null ? ` [${formatPercent(c.prevErrorRate)}]` : ''}, ${c.p95Ms !== null ? formatMs(c.p95Ms) : 'n/a'}${c.prevP95Ms !== null ? ` [${formatMs(c.prevP95Ms)}]` : ''} (${c.basis})`);
      }
    }
    if (streams.length > 0) lines.push('', 'Streams (long-lived RPCs: how long clients stayed connected, not how fast the service answers; kept out of P95s and latency blame):', ...streams.map((s) => `  ${streamLine(s)}`));
    return {
      text: boundLines(lines, ctx.maxResponseChars, 'use coral_get_service_health for one service.').text,
      structured: { window: windowJson(range), from: nsToIso(range.fromNs), to: nsToIso(range.toNs), previousFrom: nsToIso(prevRange.fromNs), standOut: top, services: changes, events: evs, lookFirst, intake: intake?.text ?? null, streams },
    };
  },
});
