import { z } from 'zod';
import { formatCount, formatMs, formatPercent } from '../../core/format.js';
import { nsToIso } from '../../core/time.js';
import type { ServiceHealth } from '../store/queries/services.js';
import { tag } from '../unified/render-tree.js';
import { eventKind, limit, serviceName, timeRange, windowFields, windowJson, windowOf, windowOutput } from './inputs.js';
import { boundLines } from './text.js';
import { unknownServiceLine } from './service-hint.js';
import { defineTool } from './types.js';

const sources = z.array(z.enum(['ebpf', 'otlp']));

export function healthJson(h: ServiceHealth) {
  const { firstSeenNs, lastSeenNs, ...rest } = h;
  return { ...rest, firstSeen: nsToIso(firstSeenNs), lastSeen: nsToIso(lastSeenNs) };
}

const healthRow = z.object({
  serviceName: z.string(), sources, status: z.enum(['healthy', 'degraded', 'unhealthy', 'unknown']), reasons: z.array(z.string()),
  requests: z.number(), errors: z.number(), errorRate: z.number(), p95Ms: z.number().nullable(), firstSeen: z.string(), lastSeen: z.string(),
});

export const serviceHealthTool = defineTool({
  name: 'coral_get_service_health',
  title: 'Service health',
  description: 'Advanced: every service (or one) with the sources that report it, last seen, server requests, error rate, P95 and a status (healthy / degraded / unhealthy) with the reasons. coral_query_summary adds the comparison with the previous window.',
  input: { time_range: timeRange.default('15m'), ...windowFields, service: serviceName.optional() },
  output: { services: z.array(healthRow), window: windowOutput, from: z.string(), to: z.string() },
  run: async (ctx, a) => {
    const range = await windowOf(ctx, a);
    const health = await ctx.store.serviceHealth(range, a.service);
    const unknown = health.length === 0 ? await unknownServiceLine(ctx, a.service) : undefined;
    const lines = health.length === 0
      ? unknown
        ? [unknown]
        : [a.service ? `No service named "${a.service}" has sent telemetry in ${range.phrase}.` : 'No services have sent telemetry yet.', 'Hint: send OTLP to the colony (port 4318), or load a demo scenario.']
      : [`Service health, ${range.label}:`, ...health.map((h) => `  ${h.serviceName} ${h.sources.map(tag).join('')}: ${h.status.toUpperCase()}${h.reasons.length ? ` (${h.reasons.join('; ')})` : ''}, ${formatCount(h.requests)} requests, ${formatPercent(h.errorRate)} errors${h.p95Ms !== null ? `, P95 ${formatMs(h.p95Ms)}` : ''}, last seen ${nsToIso(h.lastSeenNs)}`)];
    const bounded = boundLines(lines, ctx.maxResponseChars, 'ask for one service.');
    return { text: bounded.text, structured: { services: health.map(healthJson), window: windowJson(range), from: nsToIso(range.fromNs), to: nsToIso(range.toNs) } };
  },
});

export const topologyTool = defineTool({
  name: 'coral_get_service_topology',
  title: 'Service dependencies',
  description: 'Advanced: who calls whom, from client->server span pairs of both sources: calls, errors and protocol per edge; databases, caches and services that never answered appear as external.',
  input: { time_range: timeRange.default('1h'), ...windowFields },
  output: {
    window: windowOutput,
    edges: z.array(z.object({ from: z.string(), to: z.string(), kind: z.enum(['service', 'external']), protocol: z.string(), calls: z.number(), errors: z.number(), sources })),
  },
  run: async (ctx, a) => {
    const range = await windowOf(ctx, a);
    const edges = await ctx.store.topology(range);
    const lines = edges.length === 0
      ? [`No calls between services found in ${range.phrase}; the topology comes from client spans (SDK or eBPF).`]
      : [`Service dependencies, ${range.label}:`, ...edges.map((e) => `  ${e.from} -> ${e.to}${e.kind === 'external' ? ' (external)' : ''} ${e.protocol}: ${formatCount(e.calls)} calls${e.errors ? `, ${formatCount(e.errors)} errors (${formatPercent(e.errors / e.calls)})` : ''} ${e.sources.map(tag).join('')}`)];
    const bounded = boundLines(lines, ctx.maxResponseChars, 'use a shorter time_range.');
    return { text: bounded.text, structured: { window: windowJson(range), edges } };
  },
});

export const eventsTool = defineTool({
  name: 'coral_query_events',
  title: 'Operational events',
  description: 'Advanced: deploys, restarts, crashes, alerts and config changes (feature flags), newest first. Example: {"service": "payment", "kind": "deploy", "time_range": "24h"}.',
  input: { time_range: timeRange.default('24h'), ...windowFields, service: serviceName.optional(), kind: eventKind.optional(), limit: limit(20, 200) },
  output: { window: windowOutput, events: z.array(z.object({ time: z.string(), serviceName: z.string(), kind: z.string(), title: z.string(), attributes: z.record(z.string(), z.unknown()) })) },
  run: async (ctx, a) => {
    const range = await windowOf(ctx, a);
    const events = await ctx.store.queryEvents({ range, service: a.service, kind: a.kind as never, limit: a.limit });
    const out = events.map((e) => ({ time: nsToIso(e.timeNs), serviceName: e.serviceName, kind: e.kind, title: e.title, attributes: e.attributes }));
    const unknown = out.length === 0 ? await unknownServiceLine(ctx, a.service) : undefined;
    const lines = out.length === 0
      ? [`No events found in ${range.phrase}${a.service ? ` for ${a.service}` : ''}${a.kind ? ` of kind ${a.kind}` : ''}.`, ...(unknown ? [unknown] : [])]
      : out.map((e) => `${e.time} ${e.serviceName} ${e.kind}: ${e.title}`);
    return { text: boundLines(lines, ctx.maxResponseChars, 'lower limit or narrow time_range.').text, structured: { window: windowJson(range), events: out } };
  },
});
