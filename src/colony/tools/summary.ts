import { z } from 'zod';
import { formatMs, formatPercent } from '../../core/format.js';
import { nsToIso, parseDuration } from '../../core/time.js';
import { SATURATION_GAUGES, type ServiceChange, attributeErrors, compareServices, standOut } from '../unified/summary.js';
import { tag } from '../unified/render-tree.js';
import { timeRange, windowOf } from './inputs.js';
import { boundLines } from './text.js';
import { defineTool } from './types.js';

const change = z.object({
  service: z.string(), sources: z.array(z.string()), status: z.string(), ratePerSec: z.number(), prevRatePerSec: z.number().nullable(),
  errorRate: z.number(), prevErrorRate: z.number().nullable(), p95Ms: z.number().nullable(), prevP95Ms: z.number().nullable(),
  signals: z.array(z.string()), score: z.number(),
});

const rate = (r: number) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}/s`;
const srcTags = (c: ServiceChange) => c.sources.map((s) => tag(s as 'ebpf' | 'otlp')).join('');

export const summaryTool = defineTool({
  name: 'coral_query_summary',
  title: 'Where to look first',
  description:
    'Recommended: use this first. One call that tells where to look: every service\'s health, request rate, error rate and P95 latency against the preceding window, saturation signals (memory, CPU, consumer lag), recent deploys and config changes, and the services that stand out, most severe first. ' +
    'Example: {} or {"time_range": "15m"}.',
  input: { time_range: timeRange.default('30m').describe('The window to summarise; it is compared with the window of the same length before it') },
  output: {
    from: z.string(), to: z.string(), previousFrom: z.string(),
    standOut: z.array(change),
    services: z.array(change),
    events: z.array(z.object({ time: z.string(), serviceName: z.string(), kind: z.string(), title: z.string() })),
    lookFirst: z.string(),
  },
  run: async (ctx, a) => {
    const range = windowOf(ctx, a.time_range);
    const span = parseDuration(a.time_range);
    const prevRange = { fromNs: range.fromNs - span, toNs: range.fromNs };
    const [now, prev, gNow, gPrev, events, edges] = await Promise.all([
      ctx.store.serviceHealth(range),
      ctx.store.serviceHealth(prevRange),
      ctx.store.listMetrics({ range, names: SATURATION_GAUGES }),
      ctx.store.listMetrics({ range: prevRange, names: SATURATION_GAUGES }),
      ctx.store.queryEvents({ range: { fromNs: prevRange.fromNs, toNs: range.toNs }, limit: 10 }),
      ctx.store.topology(range),
    ]);
    const changes = attributeErrors(compareServices(now, prev, Number(span / 1_000_000_000n), gNow, gPrev), edges);
    const top = standOut(changes);
    const evs = events.map((e) => ({ time: nsToIso(e.timeNs), serviceName: e.serviceName, kind: e.kind, title: e.title }));
    const lines: string[] = [`Colony summary, last ${a.time_range} (${nsToIso(range.fromNs)} .. ${nsToIso(range.toNs)}), compared with the ${a.time_range} before.`];
    if (changes.length === 0) {
      lines.push('No services have sent telemetry in this window.', 'Hint: widen time_range, or check that data reaches the colony (coral colony status).');
    }
    if (top.length > 0) {
      lines.push('', 'Stand out (most severe first):');
      top.forEach((c, i) => lines.push(`  ${i + 1}. ${c.service} ${srcTags(c)}: ${c.status.toUpperCase()}; ${c.signals.join('; ')}`));
    } else if (changes.length > 0) {
      lines.push('', 'Nothing stands out: no service changed notably against the previous window.');
    }
    if (evs.length > 0) {
      lines.push('', 'Recent events:');
      for (const e of evs) lines.push(`  ${e.time} ${e.serviceName} ${e.kind}: ${e.title}`);
    }
    let lookFirst = '';
    if (top.length > 0) {
      const first = top[0];
      const related = evs.filter((e) => e.serviceName === first.service);
      lookFirst = `Where to look first: ${first.service} (${first.signals[0]})${related.length ? `; note the ${related[0].kind} at ${related[0].time}: ${related[0].title}` : ''}. Next: coral_query_metrics {"service": "${first.service}"} and coral_query_traces {"service": "${first.service}"}.`;
      lines.push('', lookFirst);
    }
    if (changes.length > 0) {
      lines.push('', 'All services (rate, errors, P95; previous window in brackets):');
      for (const c of changes) {
        lines.push(`  ${c.service} ${srcTags(c)} ${c.status}: ${rate(c.ratePerSec)}${c.prevRatePerSec !== null ? ` [${rate(c.prevRatePerSec)}]` : ''}, ${formatPercent(c.errorRate)}${c.prevErrorRate !== null ? ` [${formatPercent(c.prevErrorRate)}]` : ''}, ${c.p95Ms !== null ? formatMs(c.p95Ms) : 'n/a'}${c.prevP95Ms !== null ? ` [${formatMs(c.prevP95Ms)}]` : ''}`);
      }
    }
    return {
      text: boundLines(lines, ctx.maxResponseChars, 'use coral_get_service_health for one service.').text,
      structured: { from: nsToIso(range.fromNs), to: nsToIso(range.toNs), previousFrom: nsToIso(prevRange.fromNs), standOut: top, services: changes, events: evs, lookFirst },
    };
  },
});
