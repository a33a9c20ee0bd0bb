import { formatMs, formatPercent } from '../../core/format.js';
import { parseDuration } from '../../core/time.js';
import { type AskWindow, windowToolArgs } from '../ask-window.js';
import type { Message, ToolCall, ToolResult } from '../events.js';
import { servicesInPrompt } from '../prompt.js';
import { type QuestionIntent, parseQuestion } from '../question.js';
import { TRIAGE_MODEL, TriageProvider, turnResults } from './triage.js';
import type { ModelChunk, ModelProvider, ModelRequest } from './types.js';

/**
 * The automatic triage (no model configured) answering the question that was asked: a question about
 * a named service's latency, errors, traffic, traces or changes gets the matching tool calls and an
 * answer built from their results, each number cited. A general "what is wrong?" gets the first-pass
 * triage; a question it cannot read gets a list of what it can answer. Clearly labelled as not a model.
 */
const WINDOW = '30m';
const WINDOW_SECONDS = Number(parseDuration(WINDOW) / 1_000_000_000n);
const MAX_SERVICES = 3;

interface MetricRow {
  source: string; protocol: string; httpMethod: string | null; httpRoute: string | null; rpcService: string | null; rpcMethod: string | null;
  dbOperation: string | null; dbTable: string | null; requests: number; errors: number; errorRate: number;
  p50Ms: number | null; p95Ms: number | null; p99Ms: number | null;
}
interface ServiceChange { service: string; status: string; signals: string[] }
interface SummaryEvent { time: string; serviceName: string; kind: string; title: string }

function lastUser(messages: Message[]): number {
  return messages.map((m) => m.role).lastIndexOf('user');
}

function question(messages: Message[]): string {
  const m = messages[lastUser(messages)];
  return m?.role === 'user' ? m.text : '';
}

/** This turn's tool results, in call order, each with its citation number. */
function numbered(messages: Message[]): (ToolResult & { n: number })[] {
  return turnResults(messages).map((r, i) => ({ ...r, n: i + 1 }));
}

/** The calls that answer the question, in the order their citations will be numbered. */
export function planCalls(intent: QuestionIntent, idPrefix: string, window?: AskWindow): ToolCall[] {
  const span = windowToolArgs(window, WINDOW);
  const calls: ToolCall[] = [];
  const add = (name: string, args: Record<string, unknown>) => calls.push({ id: `${idPrefix}-${calls.length + 1}`, name, args });
  const s = new Set(intent.signals);
  const numbers = s.has('latency') || s.has('errors') || s.has('traffic');
  const unspecific = !numbers && !s.has('traces') && !s.has('change');
  for (const service of intent.services.slice(0, MAX_SERVICES)) {
    if (numbers || unspecific || intent.diagnosis) add('coral_query_metrics', { service, ...span });
    if (s.has('traces') || unspecific || intent.diagnosis) add('coral_query_traces', { service, ...span, max_traces: 3 });
  }
  if (s.has('change') || intent.diagnosis) add('coral_query_summary', span);
  return calls;
}

function operation(r: MetricRow): string {
  if (r.protocol === 'http') return `${r.httpMethod ?? ''} ${r.httpRoute ?? ''}`.trim() || 'HTTP';
  if (r.protocol === 'grpc') return [r.rpcService, r.rpcMethod].filter(Boolean).join('/') || 'gRPC';
  return [r.dbOperation, r.dbTable].filter(Boolean).join(' ') || 'SQL';
}

const tagOf = (source: string) => (source === 'ebpf' ? '[eBPF]' : '[OTLP]');
const ms = (v: number | null) => (v === null ? 'n/a' : formatMs(v));

function metricRows(r: ToolResult): MetricRow[] {
  return ((r.structured?.sections ?? []) as { rows: MetricRow[] }[]).flatMap((s) => s.rows);
}

/** Lines answering the numbers asked about one service, from its metrics result. */
function numberLines(service: string, intent: QuestionIntent, metrics: ToolResult & { n: number }): string[] {
  const rows = metricRows(metrics).sort((a, b) => b.requests - a.requests);
  const cite = `[${metrics.n}]`;
  if (!metrics.ok) return [`${service}: the metrics query failed ${cite}: ${metrics.text.split('\n')[0]}`];
  if (rows.length === 0) return [`${service}: no requests in the last ${WINDOW} from either source ${cite}.`];
  const lines: string[] = [];
  const s = new Set(intent.signals);
  const all = !s.has('latency') && !s.has('errors') && !s.has('traffic');
  if (s.has('latency') || all) {
    const asked = intent.percentiles.filter((p) => [50, 95, 99].includes(p));
    const ps = (asked.length > 0 ? asked : [50, 95, 99]) as (50 | 95 | 99)[];
    lines.push(`${service} latency, last ${WINDOW} (busiest operations first) ${cite}:`);
    for (const r of rows.slice(0, 6)) {
      lines.push(`  ${tagOf(r.source)} ${operation(r)}: ${ps.map((p) => `P${p} ${ms(r[`p${p}Ms`])}`).join(', ')} over ${r.requests.toLocaleString('en-US')} requests`);
    }
  }
  if (s.has('errors') || all) {
    const failing = rows.filter((r) => r.errors > 0).sort((a, b) => b.errorRate - a.errorRate);
    if (failing.length === 0) lines.push(`${service} errors: none in the last ${WINDOW} (${rows.reduce((a, r) => a + r.requests, 0).toLocaleString('en-US')} requests seen) ${cite}.`);
    else {
      lines.push(`${service} errors, last ${WINDOW} ${cite}:`);
      for (const r of failing.slice(0, 6)) lines.push(`  ${tagOf(r.source)} ${operation(r)}: ${formatPercent(r.errorRate)} (${r.errors} of ${r.requests})`);
    }
  }
  if (s.has('traffic')) {
    const bySource = new Map<string, number>();
    for (const r of rows) if (r.protocol !== 'sql') bySource.set(r.source, (bySource.get(r.source) ?? 0) + r.requests);
    const parts = [...bySource].map(([src, n]) => `${tagOf(src)} ${n.toLocaleString('en-US')} requests (${(n / WINDOW_SECONDS).toFixed(2)}/s)`);
    lines.push(`${service} traffic, last ${WINDOW}: ${parts.length > 0 ? parts.join(', ') : 'only outgoing database calls'} ${cite}.`);
  }
  const analysis = metrics.text.split('\n').find((l) => l.startsWith('Analysis:'));
  if (analysis) lines.push(`  ${analysis} ${cite}`);
  return lines;
}

function traceLines(service: string, traces: ToolResult & { n: number }): string[] {
  if (!traces.ok) return [`${service}: the trace search failed [${traces.n}].`];
  const list = (traces.structured?.traces ?? []) as { traceId: string; durationMs: number; errorCount: number; rootService: string; rootName: string }[];
  if (list.length === 0) return [`${service}: no traces in the last ${WINDOW} [${traces.n}].`];
  const lines = [`${service} traces, failing first, then slowest [${traces.n}]:`];
  for (const t of list) lines.push(`  ${t.traceId} ${t.rootService}: ${t.rootName} ${formatMs(t.durationMs)}${t.errorCount > 0 ? `, ${t.errorCount} error spans` : ''}`);
  const analysis = traces.structured?.analysis as string | undefined;
  if (analysis) lines.push(`  ${analysis}`);
  return lines;
}

function changeLines(services: string[], summary: ToolResult & { n: number }): string[] {
  if (!summary.ok) return [`The summary failed [${summary.n}].`];
  const changes = (summary.structured?.services ?? []) as ServiceChange[];
  const events = (summary.structured?.events ?? []) as SummaryEvent[];
  const lines: string[] = [];
  for (const service of services.slice(0, MAX_SERVICES)) {
    const c = changes.find((x) => x.service === service);
    lines.push(c && c.signals.length > 0
      ? `${service} against the previous ${WINDOW}: ${c.status}; ${c.signals.join('; ')} [${summary.n}].`
      : `${service}: nothing changed notably against the previous ${WINDOW} [${summary.n}].`);
    for (const e of events.filter((x) => x.serviceName === service)) lines.push(`  ${e.time} ${e.kind}: ${e.title} [${summary.n}]`);
  }
  const intake = summary.structured?.intake;
  if (typeof intake === 'string' && intake !== '') lines.push(`Across the colony: ${intake} [${summary.n}]`);
  const top = ((summary.structured?.standOut ?? []) as ServiceChange[])[0];
  if (top && !services.includes(top.service)) lines.push(`Across the colony, ${top.service} stands out most: ${top.signals.join('; ')} [${summary.n}].`);
  return lines;
}

/** The answer, built only from the results of this turn's calls. */
export function composeAnswer(q: string, intent: QuestionIntent, results: (ToolResult & { n: number })[]): string {
  const lines = [`Automatic triage (no model configured) answering "${q.trim()}": the tools' findings, not a diagnosis.`, ''];
  const s = new Set(intent.signals);
  for (const service of intent.services.slice(0, MAX_SERVICES)) {
    const metrics = results.find((r) => r.name === 'coral_query_metrics' && r.structured?.service === service);
    const traces = results.find((r) => r.name === 'coral_query_traces' && r.text.includes(`service '${service}'`));
    if (metrics) lines.push(...numberLines(service, intent, metrics), '');
    if (traces) lines.push(...traceLines(service, traces), '');
  }
  const summary = results.find((r) => r.name === 'coral_query_summary');
  if (summary) lines.push(...changeLines(intent.services, summary), '');
  if (intent.services.length > MAX_SERVICES) lines.push(`(Only the first ${MAX_SERVICES} services named were looked at.)`, '');
  lines.push(intent.diagnosis || s.has('change')
    ? 'Next: a configured model (ai.ask.default_model) can weigh these findings into a diagnosis.'
    : 'Next: ask "why is <service> slow?" or "what changed?" for the first pass over the whole colony.');
  return lines.join('\n');
}

export function capabilities(services: string[]): string {
  return [
    'Automatic triage (no model configured) could not tell what this question asks.',
    'It answers questions about a service\'s latency (P50/P95/P99), errors, traffic, slow or failing traces and what changed,',
    'e.g. "what is the p99 latency of cart?", "is payment failing?", "show slow traces for checkout", or a general "what is wrong?".',
    services.length > 0 ? `Services: ${services.join(', ')}.` : '',
    'For anything else, configure a model: ai.ask.default_model in ~/.coral/config.yaml, or --model.',
  ].filter(Boolean).join('\n');
}

export class QuestionTriageProvider implements ModelProvider {
  readonly name = TRIAGE_MODEL;
  readonly cloud = false;

  constructor(private readonly general: ModelProvider = new TriageProvider()) {}

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const q = question(req.messages);
    const services = servicesInPrompt(req.system);
    const intent = parseQuestion(q, services);
    if (intent.services.length === 0) {
      if (intent.diagnosis || intent.signals.length > 0 || q.trim() === '') yield* this.general.generate(req, signal);
      else yield { type: 'text', text: capabilities(services) };
      return;
    }
    const done = numbered(req.messages);
    if (done.length === 0 && req.tools.length > 0 && req.toolChoice !== 'none') {
      // Ids unique in the conversation: the message count differs in every turn.
      for (const call of planCalls(intent, `triage-${req.messages.length}`, req.window)) yield { type: 'tool_call', call };
      return;
    }
    yield { type: 'text', text: composeAnswer(q, intent, done) };
  }
}
