import { type AskWindow, windowToolArgs } from '../ask-window.js';
import type { Message, ToolResult } from '../events.js';
import type { ModelChunk, ModelProvider, ModelRequest } from './types.js';

/**
 * Without a model: an automatic triage that calls the tools a good first pass would (summary, then
 * metrics and traces of the service most likely at fault) and writes what they show: the likely root
 * cause, the evidence with the tool call it came from, the onset and the change that preceded it, how
 * it spread, and a next step with what would confirm it. It runs in the same loop as a model, so the
 * console and --json treat it alike. Clearly labelled, and worded no surer than the evidence.
 */
interface StandOut {
  service: string;
  signals: string[];
  onset?: string | null;
  trigger?: string | null;
  explainedBy?: string | null;
  failing?: boolean;
  slower?: boolean;
  chronic?: boolean;
  p95Ms?: number | null;
}

interface ServiceLine {
  service: string;
  chronic?: boolean;
  errorRate?: number;
}

export const TRIAGE_MODEL = 'triage:automatic';

/** This turn's tool results, in call order (what [1], [2], ... cite). */
export function turnResults(messages: Message[]): ToolResult[] {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(lastUser + 1).flatMap((m) => (m.role === 'tool' ? m.results : []));
}

function firstLine(text: string, prefix: string): string | undefined {
  return text.split('\n').find((l) => l.startsWith(prefix));
}

const sendsNothing = (s: StandOut) => s.signals.some((x) => x.startsWith('sends no telemetry'));

/**
 * The traces worth reading: for a slowdown the slow ones (a little under the current P95), else the most
 * recent; for a callee that sends no telemetry, its callers' failing calls (the only place it shows).
 */
function traceArgs(top: StandOut, standOut: readonly StandOut[], window?: AskWindow): Record<string, unknown> {
  const caller = sendsNothing(top) ? standOut.find((s) => s.explainedBy === top.service) : undefined;
  if (caller) return { service: caller.service, ...windowToolArgs(window, '30m'), max_traces: 3, order: 'errors' };
  const args: Record<string, unknown> = { service: top.service, ...windowToolArgs(window, '30m'), max_traces: 3 };
  if (top.slower && !top.failing && top.p95Ms) args.min_duration_ms = Math.max(1, Math.round(top.p95Ms * 0.8));
  return args;
}

interface BreakdownAnswer {
  compare?: string;
  instanceLine?: string | null;
  keys?: { label: string; top: { value: string; anomalyShare: number; baselineShare: number }[] }[];
}

const ANOMALY_WORDS: Record<string, string> = { errors: 'failing requests', slow: 'slow requests', window: 'requests this window' };
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** What the breakdown says the bad requests have in common: an instance apart from its siblings first, else the top value, else that nothing does. */
export function concentration(b: BreakdownAnswer | undefined): string | undefined {
  if (!b?.compare) return undefined;
  const what = ANOMALY_WORDS[b.compare] ?? 'anomalous requests';
  if (b.instanceLine) return b.instanceLine;
  const key = b.keys?.[0];
  const v = key?.top[0];
  if (!key || !v) return `nowhere in particular: no instance, version, route or other attribute value stands out among its ${what}`;
  return `${key.label} ${v.value}: ${pct(v.anomalyShare)} of its ${what} against ${pct(v.baselineShare)} of the rest`;
}

function nextStep(top: StandOut): string {
  const svc = top.service;
  if (sendsNothing(top)) {
    return `check that ${svc} is running and reachable from its callers (its pods or processes, endpoints, DNS, recent restarts); it sends no telemetry, so its own logs or orchestrator say why. What would confirm it: its callers' calls succeeding once ${svc} answers again.`;
  }
  if (top.trigger?.startsWith('deploy')) {
    return `compare ${svc} before and after that deploy (what changed in the release), and consider rolling it back. What would confirm it: the signals returning to normal after a rollback, or the slow/failing operation's traces pointing into the new code.`;
  }
  if (top.trigger?.startsWith('config_change')) {
    return `revert that configuration change on ${svc} if it is safe to. What would confirm it: the signals returning to normal once it is reverted.`;
  }
  if (top.signals.some((s) => s.startsWith('memory') || s.includes('restart'))) {
    return `look at ${svc}'s memory over a longer window (coral_query_metrics {"service": "${svc}"}) and its restart events; a heap profile would confirm a leak.`;
  }
  if (top.failing) return `read ${svc}'s error logs (coral_query_telemetry_logs {"service": "${svc}", "level": "error"}). What would confirm it: the same error in the logs and in the failing spans.`;
  return `read ${svc}'s slowest traces (coral_query_traces {"service": "${svc}", "min_duration_ms": ...}) to see where inside ${svc} the time goes. What would confirm it: the added time sitting in ${svc}'s own spans, not in its callees.`;
}

export class TriageProvider implements ModelProvider {
  readonly name = TRIAGE_MODEL;
  readonly cloud = false;

  async *generate(req: ModelRequest): AsyncIterable<ModelChunk> {
    const done = turnResults(req.messages);
    // Ids unique in the conversation (the message count differs in every turn); no calls when the loop forbids them.
    const id = (n: number) => `triage-${req.messages.length}-${n}`;
    const mayCall = req.tools.length > 0 && req.toolChoice !== 'none';
    const summary = done.find((r) => r.name === 'coral_query_summary');
    if (!summary) {
      if (mayCall && req.tools.some((t) => t.name === 'coral_query_summary')) yield { type: 'tool_call', call: { id: id(1), name: 'coral_query_summary', args: req.window ? windowToolArgs(req.window, '30m') : {} } };
      else yield { type: 'text', text: 'Automatic triage (no model configured): the colony tools are not available, so there is nothing to triage.' };
      return;
    }
    const standOut = (summary.structured?.standOut ?? []) as StandOut[];
    const top = standOut[0];
    const metrics = done.find((r) => r.name === 'coral_query_metrics');
    if (top && !metrics && mayCall) {
      yield { type: 'tool_call', call: { id: id(2), name: 'coral_query_metrics', args: { service: top.service, ...windowToolArgs(req.window, '30m') } } };
      yield { type: 'tool_call', call: { id: id(3), name: 'coral_query_traces', args: traceArgs(top, standOut, req.window) } };
      if (req.tools.some((t) => t.name === 'coral_query_breakdown')) {
        yield { type: 'tool_call', call: { id: id(4), name: 'coral_query_breakdown', args: { service: top.service, ...windowToolArgs(req.window, '30m') } } };
      }
      return;
    }
    const lines = ['Automatic triage (no model configured): a rule-based reading of the tools\' findings, not a diagnosis.', ''];
    const chronic = ((summary.structured?.services ?? []) as ServiceLine[]).filter((s) => s.chronic).map((s) => s.service);
    const intake = summary.structured?.intake;
    if (typeof intake === 'string' && intake !== '') {
      // Nothing is being received: the summary names no service, and neither does the triage.
      lines.push(`Finding: ${intake} [1]`);
      lines.push('', 'Recommendation: check what feeds the colony before any service: coral colony status, the collector\'s logs and its exporter errors, and whether the services are running at all.');
    } else if (!top) {
      lines.push('Finding: nothing stands out against the previous window [1]: no service changed beyond what its sample size allows.');
      if (chronic.length > 0) lines.push(`Chronic, not new: ${chronic.join(', ')} fail(s) about as much as in the previous window [1].`);
      lines.push('', 'Recommendation: configure a model (coral config, ai.ask.default_model) for a deeper look, or widen the time range.');
    } else {
      const analysis = metrics ? firstLine(metrics.text, 'Analysis:') : undefined;
      const traces = done.find((r) => r.name === 'coral_query_traces');
      const trace = traces ? firstLine(traces.text, 'Trace:') : undefined;
      const own = top.signals.filter((s) => !s.startsWith('started ') && !s.startsWith('explains ') && !s.includes('times out waiting on it'));
      lines.push(`Finding: ${top.service} stands out: ${own.join('; ')} [1].`);
      const followers = standOut.filter((s) => s.explainedBy).map((s) => `${s.service} (${s.signals.find((x) => x.includes('added latency') || x.includes('new failures')) ?? `via ${s.explainedBy}`})`);
      const why = followers.length > 0 ? 'its own change explains what its callers show' : 'it changed most, beyond noise';
      lines.push('', `Root cause (most likely): ${top.service}: ${why} [1]${analysis ? `; ${analysis.replace(/^Analysis: /, '').replace(/\.$/, '')} [2]` : ''}${trace ? `; example: ${trace.replace(/ ·.*$/, '')} [3]` : ''}.`);
      const breakdown = done.findIndex((r) => r.name === 'coral_query_breakdown');
      const where = breakdown < 0 ? undefined : concentration(done[breakdown].structured as BreakdownAnswer | undefined);
      if (where) lines.push(`Where it concentrates: ${where} [${breakdown + 1}].`);
      if (followers.length > 0) lines.push(`How it spreads: ${followers.slice(0, 4).join('; ')} [1].`);
      const others = standOut.slice(1).filter((s) => !s.explainedBy).map((s) => s.service);
      if (others.length > 0) lines.push(`Also changed, not explained by ${top.service}: ${others.slice(0, 3).join(', ')} [1].`);
      if (chronic.length > 0) lines.push(`Chronic, not new: ${chronic.join(', ')} (as bad in the previous window) [1].`);
      lines.push(`Onset: ${top.onset ? `about ${top.onset.slice(11, 16)} UTC (estimated from per-minute rates)` : 'no clear step in the per-minute series (gradual, or before the window)'} [1].`);
      lines.push(`Triggering change: ${top.trigger ? `${top.trigger} [1]` : `none recorded for ${top.service} in the 10 minutes before the onset [1].`}`);
      lines.push('', `Recommendation: ${nextStep(top)}`);
    }
    for (const l of lines) yield { type: 'text', text: `${l}\n` };
  }
}
