import type { AskWindow } from '../ask-window.js';
import type { ToolCall, ToolResult } from '../events.js';
import type { Understanding } from '../understand/index.js';
import { type Anchor, type ResolvedWindow, durationText, rangeBackTo, resolveWindow } from '../understand/window.js';
import { culpritOf, standOutOf, summaryEvents, topologyEdges } from './question-facts.js';

/**
 * Which tool calls answer an understood question, in two rounds at most (pure): the first round is
 * what the question alone calls for (always the summary, which holds status, onsets and change
 * events); the second what the first one's answers make possible (the services that serve a route,
 * the windows either side of a deploy or the onset).
 */
export const MAX_SERVICES = 3;
export const DEFAULT_RANGE = '30m';

export interface PlanContext {
  /** The colony's "now", ms (the system prompt's time). */
  nowMs: number;
  /** Tools that accept start/end (ISO 8601) beside time_range. */
  startEnd: ReadonlySet<string>;
  /** Every tool offered. */
  tools: ReadonlySet<string>;
  /** A window chosen by flags (--since, --from/--to): it wins over the question's words. */
  flagWindow?: AskWindow;
}

type Args = Record<string, unknown>;

/** A window as a tool's arguments: time_range when it ends now, else start/end where the tool takes them. */
export function rangeArgs(tool: string, w: ResolvedWindow | null, ctx: PlanContext): Args {
  if (!w) return { time_range: DEFAULT_RANGE };
  if (w.timeRange && !ctx.startEnd.has(tool)) return { time_range: w.timeRange };
  if (ctx.startEnd.has(tool)) return { start: w.window.start, end: w.window.end };
  // Not expressible without start/end: the window up to now that covers it, said so in the answer.
  return { time_range: rangeBackTo(Date.parse(w.window.start), ctx.nowMs, true) };
}

/** The flags' window, or else the words' window when it needs no anchor. */
export function fixedWindow(u: Understanding, ctx: PlanContext): ResolvedWindow | null {
  if (ctx.flagWindow) {
    const start = Date.parse(ctx.flagWindow.start);
    const end = Date.parse(ctx.flagWindow.end);
    const endsNow = Math.abs(ctx.nowMs - end) < 60_000;
    return { window: ctx.flagWindow, timeRange: endsNow ? durationText(Math.max(1, Math.round((end - start) / 1000))) : null };
  }
  if (!u.window || u.window.kind === 'anchor') return null;
  return resolveWindow(u.window, ctx.nowMs);
}

class Calls {
  readonly list: ToolCall[] = [];
  constructor(private readonly prefix: string, private readonly from: number) {}
  add(name: string, args: Args): void {
    this.list.push({ id: `${this.prefix}-${this.from + this.list.length + 1}`, name, args });
  }
}

export function planFirst(u: Understanding, ctx: PlanContext, idPrefix: string): ToolCall[] {
  const c = new Calls(idPrefix, 0);
  const w = fixedWindow(u, ctx);
  c.add('coral_query_summary', rangeArgs('coral_query_summary', w, ctx));
  const anchored = !ctx.flagWindow && u.window?.kind === 'anchor';
  const onlyTraces = u.signals.length === 1 && u.signals[0] === 'traces';
  const wantsNumbers = !onlyTraces && (['number', 'verdict', 'diagnosis', 'status', 'saturation'].includes(u.kind) || (u.kind === 'compare' && !anchored));
  for (const s of u.services.slice(0, MAX_SERVICES)) {
    if (wantsNumbers) c.add('coral_query_metrics', { service: s.name, ...rangeArgs('coral_query_metrics', w, ctx) });
    if (u.kind === 'diagnosis' || u.signals.includes('traces')) c.add('coral_query_traces', { service: s.name, ...rangeArgs('coral_query_traces', w, ctx), max_traces: 3 });
  }
  if (u.kind === 'saturation') {
    const q = u.question.toLowerCase();
    const metric = /\bcpu\b/.test(q) ? 'cpu' : /\b(memory|mem|heap|oom\w*|leak\w*)\b/.test(q) ? 'memory' : /\blag\w*\b/.test(q) ? 'lag' : 'process';
    for (const s of u.services.slice(0, MAX_SERVICES)) c.add('coral_query_telemetry_metrics', { service: s.name, metric, ...rangeArgs('coral_query_telemetry_metrics', w, ctx) });
  }
  if (asksMessages(u.question)) for (const s of u.services.slice(0, 1)) c.add('coral_query_telemetry_logs', { service: s.name, level: 'error', limit: 50, ...rangeArgs('coral_query_telemetry_logs', w, ctx) });
  const opOnly = u.operation !== null && u.services.length === 0;
  if (u.route || opOnly || u.infra.length > 0 || u.kind === 'saturation') c.add('coral_get_service_topology', rangeArgs('coral_get_service_topology', w, ctx));
  return c.list;
}

interface Edge { from: string; to: string; kind: string; protocol: string }

/** Services that answer HTTP: called over HTTP by another service, or calling out over HTTP with no HTTP caller (the ingress). */
export function httpServers(edges: readonly Edge[]): string[] {
  const http = edges.filter((e) => e.protocol === 'http' && e.kind === 'service');
  const called = new Set(http.map((e) => e.to));
  const roots = http.map((e) => e.from).filter((f) => !called.has(f));
  return [...new Set([...called, ...roots])];
}

/** Anchors from the summary: change events and the onsets of what stands out. */
export function anchorsOf(summary: ToolResult | undefined): Anchor[] {
  const events = summaryEvents(summary);
  const stand = standOutOf(summary);
  // A slow ramp's onset is estimated late: the change that started it, when known, is when it began.
  // So is a change on the same service up to 30 minutes before the onset (a ramp that began with it).
  const began = (x: (typeof stand)[number]) => {
    const onset = x.onset as string;
    const t = /^\S+ at (\S+):/.exec(x.trigger ?? '')?.[1];
    const own = events.filter((e) => e.serviceName === x.service && e.time < onset && Date.parse(onset) - Date.parse(e.time) <= 30 * 60_000).map((e) => e.time).sort()[0];
    return [onset, t, own].filter((v): v is string => Boolean(v)).sort()[0];
  };
  const kindOf = (k: string): Anchor['kind'] => (k === 'deploy' ? 'deploy' : k === 'restart' || k === 'crash' ? 'restart' : 'change');
  return [
    ...events.map((e) => ({ kind: kindOf(e.kind), time: e.time, service: e.serviceName, title: `${e.kind}: ${e.title}` })),
    ...stand.filter((x) => x.onset).slice(0, 1).map((x) => ({ kind: 'incident' as const, time: began(x), service: x.service, title: `onset of ${x.service}'s change (${x.signals[0] ?? ''})` })),
  ];
}

/** The window of a before/after or since-X question, once the first round's summary gave the anchors. */
export function anchoredWindow(u: Understanding, ctx: PlanContext, results: readonly ToolResult[]): ResolvedWindow | null {
  if (ctx.flagWindow || u.window?.kind !== 'anchor') return null;
  return resolveWindow(u.window, ctx.nowMs, anchorsOf(results.find((r) => r.name === 'coral_query_summary')), u.services.map((s) => s.name));
}

/** "what errors is payment throwing?", "any exceptions?", "error messages of cart": the words of the errors, from the logs. */
export const asksMessages = (q: string) => /\b((what|which) (kind of )?(errors?|exceptions?)|error messages?|exceptions?|stack ?traces?|logs?|throwing|saying)\b/i.test(q);

/** "which product / pod / customer is failing?": the value the bad requests share, from the breakdown. */
export const asksDimension = (q: string) => /^\s*(which|what)\s+(\w+\s+)?(products?|pods?|instances?|nodes?|hosts?|versions?|customers?|users?|tiers?|regions?|zones?|items?|cards?|currenc(y|ies)|attributes?|values?)\b/i.test(q);

export function planSecond(u: Understanding, ctx: PlanContext, results: readonly ToolResult[], idPrefix: string): ToolCall[] {
  const c = new Calls(idPrefix, results.length);
  const w = fixedWindow(u, ctx);
  const topo = results.find((r) => r.name === 'coral_get_service_topology');
  const edges = topologyEdges(topo);
  if (u.route) {
    for (const s of httpServers(edges).slice(0, 6)) c.add('coral_query_metrics', { service: s, protocol: 'http', ...rangeArgs('coral_query_metrics', w, ctx) });
  } else if (u.operation && u.services.length === 0) {
    // Every service called by another: one of them serves the operation.
    const served = [...new Set(edges.filter((e) => e.kind === 'service').map((e) => e.to))];
    for (const s of served.slice(0, 12)) c.add('coral_query_metrics', { service: s, ...rangeArgs('coral_query_metrics', w, ctx) });
  }
  if (u.kind === 'list' && asksDimension(u.question) && ctx.tools.has('coral_query_breakdown')) {
    const summary = results.find((r) => r.name === 'coral_query_summary');
    const target = u.services[0]?.name ?? culpritOf(summary)?.service;
    if (target) c.add('coral_query_breakdown', { service: target, ...rangeArgs('coral_query_breakdown', w, ctx) });
  }
  const a = anchoredWindow(u, ctx, results);
  if (a?.compare) {
    if (ctx.startEnd.has('coral_query_metrics') && u.services.length > 0) {
      for (const s of u.services.slice(0, MAX_SERVICES)) {
        c.add('coral_query_metrics', { service: s.name, start: a.compare.before.start, end: a.compare.before.end });
        c.add('coral_query_metrics', { service: s.name, start: a.compare.after.start, end: a.compare.after.end });
      }
    } else {
      // The summary compares a window with the one just before it: ending now and starting at the anchor, that is before/after.
      c.add('coral_query_summary', { time_range: rangeBackTo(Date.parse(a.compare.anchor.time), ctx.nowMs) });
    }
  } else if (a) {
    c.add('coral_query_summary', { time_range: a.timeRange ?? DEFAULT_RANGE });
    for (const s of u.services.slice(0, MAX_SERVICES)) c.add('coral_query_metrics', { service: s.name, time_range: a.timeRange ?? DEFAULT_RANGE });
  }
  return c.list;
}
