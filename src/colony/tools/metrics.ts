import { z } from 'zod';
import { nsToIso } from '../../core/time.js';
import { type Protocol, type RedFilters, PROTOCOLS } from '../store/queries/red.js';
import type { Source } from '../store/rows.js';
import { type RedSection, analysis, chooseSections, compareSources, sectionLines } from '../unified/red-merge.js';
import { grpcStatusCode, httpMethod, protocol, sqlOperation, serviceName, statusCodeRange, text, timeRange, windowFields, windowHeading, windowJson, windowOf, windowOutput } from './inputs.js';
import { boundLines } from './text.js';
import { unknownServiceLine } from './service-hint.js';
import { type ToolContext, ToolInputError, type ToolOutput, defineTool } from './types.js';

const redRow = z.object({
  source: z.enum(['ebpf', 'otlp']),
  basis: z.enum(['spans', 'histogram']),
  protocol: z.enum(['http', 'grpc', 'sql']),
  httpRoute: z.string().nullable(),
  httpMethod: z.string().nullable(),
  rpcService: z.string().nullable(),
  rpcMethod: z.string().nullable(),
  dbSystem: z.string().nullable(),
  dbOperation: z.string().nullable(),
  dbTable: z.string().nullable(),
  requests: z.number(),
  errors: z.number(),
  errorRate: z.number(),
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  percentilesAtLeast: z.boolean(),
});

const metricsOutput = {
  service: z.string(),
  timeRange: z.string(),
  window: windowOutput,
  from: z.string(),
  to: z.string(),
  protocols: z.array(z.enum(['http', 'grpc', 'sql'])),
  sections: z.array(z.object({ protocol: z.enum(['http', 'grpc', 'sql']), source: z.enum(['ebpf', 'otlp']), basis: z.enum(['spans', 'histogram']), rows: z.array(redRow) })),
  notes: z.array(z.string()),
  analysis: z.string(),
  sourcesAnswered: z.array(z.enum(['ebpf', 'otlp'])),
  sourcesEmpty: z.array(z.enum(['ebpf', 'otlp'])),
  /** Set when the colony knows no service by that name: which names it knows, closest first. */
  unknownService: z.string().nullable(),
  truncated: z.boolean(),
};

const FILTER_FAMILY: Record<string, Protocol> = {
  http_route: 'http', http_method: 'http', status_code_range: 'http',
  grpc_method: 'grpc', grpc_status_code: 'grpc',
  sql_operation: 'sql', table_name: 'sql',
};

/** Which protocols to query: the one asked for, or the one the filters imply, or all of them. */
export function resolveProtocols(requested: string, args: Record<string, unknown>): Protocol[] {
  const used = Object.keys(FILTER_FAMILY).filter((k) => args[k] !== undefined);
  const families = [...new Set(used.map((k) => FILTER_FAMILY[k]))];
  if (requested !== 'auto') {
    const wrong = used.filter((k) => FILTER_FAMILY[k] !== requested);
    if (wrong.length > 0) {
      throw new ToolInputError(`${wrong.join(', ')} ${wrong.length > 1 ? 'apply' : 'applies'} to protocol ${FILTER_FAMILY[wrong[0]]}, not ${requested}. Filters by protocol: http: http_route, http_method, status_code_range; grpc: grpc_method, grpc_status_code; sql: sql_operation, table_name.`);
    }
    return [requested as Protocol];
  }
  if (families.length > 1) {
    throw new ToolInputError(`Filters for ${families.join(' and ')} cannot be combined in one query (${used.join(', ')}); ask once per protocol.`);
  }
  return families.length === 1 ? families : [...PROTOCOLS];
}

interface MetricsArgs {
  service: string;
  time_range: string;
  start?: string;
  end?: string;
  http_route?: string;
  http_method?: string;
  status_code_range?: '2xx' | '3xx' | '4xx' | '5xx';
  grpc_method?: string;
  grpc_status_code?: number;
  sql_operation?: string;
  table_name?: string;
}

function filters(a: MetricsArgs): RedFilters {
  return {
    httpRoute: a.http_route,
    httpMethod: a.http_method,
    statusCodeRange: a.status_code_range,
    grpcMethod: a.grpc_method,
    grpcStatusCode: a.grpc_status_code,
    sqlOperation: a.sql_operation,
    tableName: a.table_name,
  };
}

/** RED metrics for a service from both sources, merged; the porcelain and the eBPF plumbing share it. */
async function redMetrics(ctx: ToolContext, a: MetricsArgs, protocols: Protocol[], sources: Source[], deprecation?: string): Promise<ToolOutput> {
  const range = await windowOf(ctx, a);
  const f = filters(a);
  const [spans, hist] = await Promise.all([
    Promise.all(protocols.map((p) => ctx.store.redFromSpans({ ...f, service: a.service, protocol: p, range }))).then((r) => r.flat()),
    Promise.all(protocols.map((p) => ctx.store.redFromHistograms({ ...f, service: a.service, protocol: p, range }))).then((r) => r.flat()),
  ]);
  const sections = chooseSections(protocols, spans, hist).filter((s) => sources.includes(s.source));
  const answered = sources.filter((s) => sections.some((x) => x.source === s));
  const empty = sources.filter((s) => !answered.includes(s));
  const notes = sources.length > 1 ? compareSources(sections) : [];
  const verdict = analysis(sections);
  const lines: string[] = [];
  if (deprecation) lines.push(deprecation);
  const filterText = Object.entries(a).filter(([k, v]) => FILTER_FAMILY[k] && v !== undefined).map(([k, v]) => `${k}=${v}`).join(', ');
  lines.push(`Service: ${a.service}, ${windowHeading(range)}${filterText ? `, filters: ${filterText}` : ''}`);
  const unknown = sections.length === 0 ? await unknownServiceLine(ctx, a.service) : undefined;
  if (sections.length === 0) {
    lines.push(`No metrics found for ${a.service} (${protocols.join('/')}, ${sources.map((s) => (s === 'ebpf' ? 'eBPF' : 'OTLP')).join(' and ')}).`);
    lines.push(unknown ?? 'Hint: widen time_range, or drop a filter.');
  } else {
    for (const s of sections) lines.push(...sectionLines(s), '');
    if (notes.length > 0) lines.push('Notes:', ...notes.map((n) => `  ${n}`));
    if (verdict) lines.push(verdict);
    if (sources.length > 1 && empty.length > 0) lines.push(`Sources: ${answered.map(srcName).join(', ')} answered; ${empty.map(srcName).join(', ')} had no data.`);
  }
  const bounded = boundLines(lines, ctx.maxResponseChars, 'narrow with http_route, grpc_method or sql_operation, or a shorter time_range.');
  return {
    text: bounded.text,
    structured: {
      service: a.service,
      timeRange: range.length,
      window: windowJson(range),
      from: nsToIso(range.fromNs),
      to: nsToIso(range.toNs),
      protocols,
      sections: sections as RedSection[] as unknown as Record<string, unknown>[],
      notes,
      analysis: verdict,
      sourcesAnswered: answered,
      sourcesEmpty: empty,
      unknownService: unknown ?? null,
      truncated: bounded.truncated,
    },
  };
}

const srcName = (s: Source) => (s === 'ebpf' ? 'eBPF' : 'OTLP');

const unionInput = {
  service: serviceName,
  time_range: timeRange.default('1h'),
  ...windowFields,
  protocol: protocol.default('auto').describe('auto (every protocol the service speaks, or the one the filters imply), http, grpc or sql'),
  http_route: text('http_route').optional().describe('HTTP route template, e.g. /api/checkout'),
  http_method: httpMethod.optional(),
  status_code_range: statusCodeRange.optional().describe('HTTP status class: 2xx, 3xx, 4xx or 5xx'),
  grpc_method: text('grpc_method').optional().describe('gRPC method: Charge, oteldemo.PaymentService/Charge or /oteldemo.PaymentService/Charge'),
  grpc_status_code: grpcStatusCode.optional().describe('gRPC status code, 0 (OK) to 16'),
  sql_operation: sqlOperation.optional(),
  table_name: text('table_name').optional().describe('SQL table, e.g. orders'),
};

export const queryMetrics = defineTool({
  name: 'coral_query_metrics',
  title: 'RED metrics (eBPF + OTLP)',
  description:
    'Recommended: request rate, error rate and P50/P95/P99 latency of a service, from eBPF and OTLP data at once, merged per route, gRPC method or SQL operation, each section tagged [eBPF] or [OTLP], with notes where the sources disagree. ' +
    'Example: {"service": "checkout", "time_range": "1h"} or {"service": "frontend", "http_route": "/api/checkout", "status_code_range": "5xx"}.',
  input: unionInput,
  output: metricsOutput,
  run: (ctx, a) => redMetrics(ctx, a as MetricsArgs, resolveProtocols(a.protocol, a), ['ebpf', 'otlp']),
});

function ebpfMetricsTool(p: Protocol, name: string, title: string, input: Record<string, z.ZodType>, deprecatedAliasOf?: string) {
  return defineTool({
    name,
    title,
    description: `Advanced: ${p.toUpperCase()} RED metrics from eBPF only (Grafana Beyla or OpenTelemetry eBPF Instrumentation): histograms when present (every request), else eBPF spans. Prefer coral_query_metrics, which merges both sources.`,
    input: { service: serviceName, time_range: timeRange.default('1h'), ...windowFields, ...input },
    output: metricsOutput,
    deprecatedAliasOf,
    run: (ctx, a) => redMetrics(ctx, a as unknown as MetricsArgs, [p], ['ebpf'], deprecatedAliasOf ? `Note: ${name} is deprecated; use ${deprecatedAliasOf}.` : undefined),
  });
}

const HTTP_FILTERS = { http_route: unionInput.http_route, http_method: unionInput.http_method, status_code_range: unionInput.status_code_range };
const GRPC_FILTERS = { grpc_method: unionInput.grpc_method, grpc_status_code: unionInput.grpc_status_code };
const SQL_FILTERS = { sql_operation: unionInput.sql_operation, table_name: unionInput.table_name };

export const ebpfMetricsTools = [
  ebpfMetricsTool('http', 'coral_query_ebpf_http_metrics', 'eBPF HTTP metrics', HTTP_FILTERS),
  ebpfMetricsTool('grpc', 'coral_query_ebpf_grpc_metrics', 'eBPF gRPC metrics', GRPC_FILTERS),
  ebpfMetricsTool('sql', 'coral_query_ebpf_sql_metrics', 'eBPF SQL metrics', SQL_FILTERS),
];

export const deprecatedMetricsTools = [
  ebpfMetricsTool('http', 'coral_query_beyla_http_metrics', 'eBPF HTTP metrics (old name)', HTTP_FILTERS, 'coral_query_ebpf_http_metrics'),
  ebpfMetricsTool('grpc', 'coral_query_beyla_grpc_metrics', 'eBPF gRPC metrics (old name)', GRPC_FILTERS, 'coral_query_ebpf_grpc_metrics'),
  ebpfMetricsTool('sql', 'coral_query_beyla_sql_metrics', 'eBPF SQL metrics (old name)', SQL_FILTERS, 'coral_query_ebpf_sql_metrics'),
];

