import { closestNames } from '../../core/closest.js';
import { formatCount, formatMs, formatPercent } from '../../core/format.js';
import type { Understanding } from '../understand/index.js';
import { stated, words } from '../understand/entities.js';
import { type ServiceState, asksCulprit, healthReason, healthWord, ownSignals, verdict } from '../understand/verdict.js';
import type { ResolvedWindow } from '../understand/window.js';
import { concentration } from './triage.js';
import { gaugeLines, missingInfra, missingInfraLine, saturationHeadline } from './question-infra.js';
import { type Cited, type MetricRow, type RouteHit, cite, culpritOf, ms, operation, operationServer, routeServer, servedRows, standOutOf, summaryEvents, summaryStates, tagOf, topologyEdges } from './question-facts.js';

/**
 * The question triage's answer (pure): one line that answers the question (a number, a yes/no with
 * its reason, a list, a recommendation), then the evidence with citations, the window used and the
 * next step. Built only from this turn's results; what could not be matched or found is said.
 */
export interface AnswerInput {
  u: Understanding;
  services: readonly string[];
  results: readonly Cited[];
  /** The window used, and where it came from; null: the default. */
  window: ResolvedWindow | null;
  /** The window of a before/after or since-X question, when its anchor was found. */
  anchored: ResolvedWindow | null;
}

function windowLine(w: ResolvedWindow | null, u: Understanding): string {
  if (w) return `Window: ${w.window.label}.`;
  if (u.window?.kind === 'anchor') return `Window: the last 30 min (the default): no ${u.window.anchor === 'incident' ? 'onset' : u.window.anchor} was found in the colony to anchor "${u.window.words}" on.`;
  return 'Window: the last 30 min against the 30 min before (the default; say "in the last 15 minutes", "since 13:05" or use --since to choose).';
}

function stateLine(s: ServiceState, summary: Cited | undefined): string {
  return `${s.service}: ${s.status}; ${ownSignals(s).join('; ') || 'no change beyond noise'}; now ${s.ratePerSec.toFixed(2)} req/s, ${formatPercent(s.errorRate)} errors, P95 ${ms(s.p95Ms)}${s.prevP95Ms !== null ? ` (was ${ms(s.prevP95Ms)})` : ''}${cite(summary)}.`;
}

function metricLines(service: string, m: Cited, percentiles: readonly number[]): string[] {
  const rows = servedRows(m);
  if (!m.ok) return [`${service}: the metrics query failed${cite(m)}: ${m.text.split('\n')[0]}`];
  if (rows.length === 0) return [`${service}: no requests served in this window from either source${cite(m)}.`];
  const asked = percentiles.filter((p) => [50, 95, 99].includes(p));
  const ps = (asked.length > 0 ? asked : [50, 95, 99]) as (50 | 95 | 99)[];
  return [`${service} operations, busiest first${cite(m)}:`, ...rows.slice(0, 5).map((r) => `  ${tagOf(r.source)} ${operation(r)}: ${ps.map((p) => `P${p} ${ms(r[`p${p}Ms`])}`).join(', ')}, ${formatPercent(r.errorRate)} errors over ${formatCount(r.requests)} requests`)];
}

function absentLine(u: Understanding, services: readonly string[]): string | null {
  if (u.absent.length === 0 || u.services.length > 0 || u.route) return null;
  const name = u.absent[0];
  const close = closestNames(name, services).slice(0, 3);
  return `There is no ${name} service in this colony; the closest names are ${close.join(', ')}. The services are: ${services.join(', ')}.`;
}

/** The first line for a question about named services. */
function serviceHeadline(u: Understanding, s: ServiceState, m: Cited | undefined, summary: Cited | undefined): string {
  const who = stated(u.services.find((x) => x.name === s.service) ?? { name: s.service, typed: s.service, exact: true, distance: 0 });
  const word = healthWord(s);
  const why = `${healthReason(s)}${cite(summary)}`;
  const top = culpritOf(summary);
  // Any yes/no form of "is X the cause?" ("... compared to before?" too) is answered against what stands out first.
  if ((u.kind === 'verdict' || u.kind === 'diagnosis' || u.polarity !== null) && asksCulprit(u.question)) {
    if (top?.service === s.service) return `Yes: ${who} stands out first: ${why}${s.trigger ? `, just after the ${s.trigger}` : ''}.`;
    const other = top ? `; what stands out is ${top.service}: ${healthReason(top)}${top.trigger ? `, after the ${top.trigger}` : ''}` : '; nothing stands out in this window';
    return `No: ${who} is ${word === 'healthy' ? 'healthy' : `${word} (${healthReason(s)})`}${s.chronic ? ', and that is not new' : ''}${other}${cite(summary)}.`;
  }
  if (u.kind === 'verdict' || (u.polarity !== null && u.kind !== 'saturation')) return `${verdict(u.question, s)}: ${who} is ${word}: ${why}.`;
  if (u.kind === 'number' || (u.kind === 'status' && u.signals.some((x) => x === 'latency' || x === 'errors' || x === 'traffic'))) return numberHeadline(u, who, s, m, summary);
  const cause = causeOf(s, summary);
  return `${who} is ${word}: ${why}${cause ? `; the likeliest cause is ${cause.service}, which stands out first: ${healthReason(cause)}${cite(summary)}` : ''}.`;
}

/** The service behind another's trouble: the callee it is explained by, else what stands out first. */
function causeOf(s: ServiceState, summary: Cited | undefined): ServiceState | undefined {
  if (healthWord(s) === 'healthy') return undefined;
  const explained = s.explainedBy ? standOutOf(summary).find((x) => x.service === s.explainedBy) ?? summaryStates(summary).find((x) => x.service === s.explainedBy) : undefined;
  const top = explained ?? culpritOf(summary);
  return top && top.service !== s.service ? top : undefined;
}

function numberHeadline(u: Understanding, who: string, s: ServiceState, m: Cited | undefined, summary: Cited | undefined): string {
  const sig = new Set(u.signals);
  if (s.requests === 0 && !/\b(restart|crash|oom)/i.test(u.question)) return `${who}: no requests in this window, so no figure to give; ${healthWord(s)}: ${healthReason(s)}${cite(summary)}.`;
  const queue = s.signals.find((x) => /^(messages wait|consumer lag)/.test(x));
  if (queue && /\b(wait\w*|lag\w*|delay\w*|behind|backlog\w*|queue\w*)\b/i.test(u.question)) return `${who}: ${queue}${cite(summary)}.`;
  if (/\b(restart\w*|crash\w*|oom\w*)\b/i.test(u.question)) {
    const events = summaryEvents(summary).filter((e) => e.serviceName === s.service && /restart|crash/.test(e.kind));
    const said = Number(/\((\d+) restarts?\)/.exec(s.signals.join(' '))?.[1] ?? Number.NaN);
    const n = Number.isNaN(said) ? events.length : said;
    return `${who}: ${n} restart${n === 1 ? '' : 's'} in this window${events.length > 0 ? ` (the latest at ${events[0].time.slice(11, 16)} UTC)` : ''}${cite(summary)}.`;
  }
  if (sig.has('errors')) return `${who}: error rate ${formatPercent(s.errorRate)} (${formatCount(Math.round(s.errorRate * s.requests))} of ${formatCount(s.requests)} requests)${s.prevErrorRate !== null ? `, was ${formatPercent(s.prevErrorRate)}` : ''}${cite(summary)}.`;
  if (sig.has('traffic') && !sig.has('latency')) return `${who}: ${s.ratePerSec.toFixed(2)} requests/s (${formatCount(s.requests)} requests)${s.prevRatePerSec !== null ? `, was ${s.prevRatePerSec.toFixed(2)}/s` : ''}${cite(summary)}.`;
  const p = u.percentiles.find((x) => [50, 99].includes(x));
  const busiest: MetricRow | undefined = servedRows(m)[0];
  if (p && busiest) return `${who}: P${p} ${ms(busiest[`p${p}Ms` as 'p50Ms' | 'p99Ms'])} on its busiest operation ${operation(busiest)} (${formatCount(busiest.requests)} requests) ${tagOf(busiest.source)}${cite(m)}; P95 over the service ${ms(s.p95Ms)}${cite(summary)}.`;
  return `${who}: P95 ${ms(s.p95Ms)}${s.prevP95Ms !== null ? ` (was ${ms(s.prevP95Ms)} in the window before)` : ''}, ${healthWord(s)}${cite(summary)}.`;
}

function listHeadline(u: Understanding, states: readonly ServiceState[], summary: Cited | undefined): string {
  const q = u.question.toLowerCase();
  const want = /\bslow\w*|latenc/.test(q) ? ['slow'] : /\bfail|error|broken/.test(q) ? ['failing', 'down'] : /\bdown|dead|silent/.test(q) ? ['down'] : ['down', 'failing', 'slow', 'degraded'];
  const hits = states.filter((s) => want.includes(healthWord(s)));
  if (hits.length === 0) return `None: no service is ${want.join(' or ')} in this window; all ${states.length} are within their normal error rate, latency and traffic${cite(summary)}.`;
  return `${hits.map((s) => `${s.service} (${healthWord(s)}: ${ownSignals(s)[0] ?? `${formatPercent(s.errorRate)} errors`})`).join(', ')}${cite(summary)}.`;
}

function rollbackHeadline(u: Understanding, states: readonly ServiceState[], summary: Cited | undefined): string {
  // A change named by its flag or version ("the kafkaQueueProblems flag", "2.1.0"): judged by what followed it.
  const events = summaryEvents(summary);
  const named = u.services.length === 0 ? events.find((e) => words(u.question).some((w) => w.length >= 5 && !/^(deploy|flag|change|config|release)/.test(w) && e.title.toLowerCase().includes(w))) : undefined;
  if (named) {
    const hit = standOutOf(summary).find((x) => x.service === named.serviceName || (x.trigger ?? '').includes(named.title));
    return hit
      ? `Yes: ${named.kind === 'deploy' ? 'roll back' : 'turn off / revert'} "${named.title}" (${named.serviceName}, ${named.time.slice(11, 16)} UTC): ${hit.service} changed right after it (${healthReason(hit)})${cite(summary)}.`
      : `No: nothing that stands out followed "${named.title}" (${named.serviceName}, ${named.time.slice(11, 16)} UTC)${cite(summary)}.`;
  }
  const s = (u.services[0] ? states.find((x) => x.service === u.services[0].name) : standOutOf(summary)[0]);
  if (!s) return `No: nothing stands out in this window, so there is nothing to roll back${cite(summary)}.`;
  const top = culpritOf(summary);
  const who = u.services[0] ? stated(u.services[0]) : s.service;
  const word = healthWord(s);
  if (word === 'healthy') return `No: ${who} is healthy (${healthReason(s)})${cite(summary)}; a rollback would not fix anything seen here.`;
  if (s.explainedBy || (top && top.service !== s.service && !s.trigger)) {
    const by = s.explainedBy ?? top?.service;
    return `No: ${who}'s trouble (${healthReason(s)}) comes from ${by}${top && top.service !== by ? `, and what stands out first is ${top.service}` : ''}${top?.trigger ? ` (after the ${top.trigger})` : ''}${cite(summary)}; rolling back ${s.service} would not fix it.`;
  }
  if (s.trigger?.startsWith('deploy')) return `Yes, consider rolling back ${who}: it is ${word} (${healthReason(s)}), starting just after the ${s.trigger}${cite(summary)}.`;
  // A configuration change, not a release, came before it: yes to reverting the change, no to rolling back a release.
  if (s.trigger && /\b(config\w*|flag\w*|change|revert|push)\b/i.test(u.question)) return `Yes, revert the change: ${who} is ${word} (${healthReason(s)}) since the ${s.trigger}${cite(summary)}.`;
  if (s.trigger) return `No rollback of a release: revert the change instead: ${who} is ${word} (${healthReason(s)}) since the ${s.trigger}${cite(summary)}.`;
  return `No, not on this evidence: ${who} is ${word} (${healthReason(s)}), but no deploy or change came before its onset${cite(summary)}; a rollback might not help.`;
}

/** How two figures compare, in words: "about the same (unchanged)", "8.1x higher". */
function change(a: number | null, b: number | null): string {
  if (a === null || b === null || a <= 0) return '';
  const r = b / a;
  if (r >= 0.8 && r <= 1.25) return ': about the same (unchanged)';
  return r > 1 ? `: ${r.toFixed(1)}x higher` : `: ${(1 / r).toFixed(1)}x lower`;
}

function compareLines(u: Understanding, a: ResolvedWindow, results: readonly Cited[], first: Cited | undefined): string[] {
  const c = a.compare;
  if (!c) return [];
  const when = c.anchor.service ? `${c.anchor.title} at ${c.anchor.time.slice(11, 16)} UTC` : c.anchor.title;
  const before = (svc: string) => results.find((r) => r.name === 'coral_query_metrics' && r.args.service === svc && r.args.end === c.before.end);
  const after = (svc: string) => results.find((r) => r.name === 'coral_query_metrics' && r.args.service === svc && r.args.start === c.after.start);
  const p = (u.percentiles.find((x) => [50, 95, 99].includes(x)) ?? 95) as 50 | 95 | 99;
  const lines: string[] = [];
  const errorsAsked = u.signals.includes('errors') && !u.signals.includes('latency');
  for (const s of u.services.slice(0, 3)) {
    if (errorsAsked && before(s.name) && after(s.name)) {
      const rate = (r: Cited | undefined) => {
        const rows = servedRows(r);
        const src = rows[0]?.source;
        const mine = rows.filter((x) => x.source === src);
        const n = mine.reduce((a, x) => a + x.requests, 0);
        return n === 0 ? null : { rate: mine.reduce((a, x) => a + x.errors, 0) / n, n };
      };
      const [e0, e1] = [rate(before(s.name)), rate(after(s.name))];
      lines.push(`${stated(s)} error rate: ${e0 ? `${formatPercent(e0.rate)} of ${formatCount(e0.n)} requests` : 'no requests'} before, ${e1 ? `${formatPercent(e1.rate)} of ${formatCount(e1.n)} requests` : 'no requests'} after the ${when}${cite(before(s.name))}${cite(after(s.name))}.`);
      continue;
    }
    const b = servedRows(before(s.name))[0];
    const aft = servedRows(after(s.name))[0];
    if (before(s.name) && after(s.name)) {
      const op = aft ?? b;
      const pick = (rows: MetricRow[]) => rows.find((r) => op && operation(r) === operation(op) && r.source === op.source);
      const x = pick(servedRows(before(s.name)));
      const y = pick(servedRows(after(s.name)));
      const [v0, v1] = [x?.[`p${p}Ms`] ?? null, y?.[`p${p}Ms`] ?? null];
      lines.push(`${stated(s)} P${p} on ${op ? operation(op) : 'its busiest operation'}: ${ms(v0)} before, ${ms(v1)} after the ${when}${cite(before(s.name))}${cite(after(s.name))}${change(v0, v1)}.`);
    }
  }
  if (lines.length > 0) return lines;
  // Fallback: the summary over [anchor, now] against the window before it, P95 per service.
  const around = results.filter((r) => r.name === 'coral_query_summary')[1] ?? first;
  const states = summaryStates(around);
  const pool = u.services.length > 0 ? states.filter((s) => u.services.some((x) => x.name === s.service)) : standOutOf(around).slice(0, 3);
  for (const s of pool) {
    lines.push(`${s.service} P95: ${ms(s.prevP95Ms)} before, ${ms(s.p95Ms)} after the ${when}${change(s.prevP95Ms, s.p95Ms)}; errors ${s.prevErrorRate !== null ? formatPercent(s.prevErrorRate) : 'n/a'} -> ${formatPercent(s.errorRate)}${cite(around)}${p !== 95 ? ` (P${p} either side needs tools that take start/end; this is P95)` : ''}.`);
  }
  if (lines.length === 0) lines.push(`Nothing changed beyond noise between before and after the ${when}${cite(around)}.`);
  return lines;
}

interface TraceRow { traceId: string; durationMs: number; errorCount: number; rootService: string; rootName: string }
const traceList = (r: Cited | undefined) => (r?.structured?.traces ?? []) as TraceRow[];

interface BreakdownKey { label: string; top: { value: string; anomalyShare: number; baselineShare: number }[] }

/** The breakdown key the question asks about ("which product": a product id), with its top value. */
const DIMENSIONS = /\b(product|pod|node|host|version|customer|user|tier|region|zone|item|card|currency|instance)(?:e?s)?\b/i;

function dimensionLine(question: string, b: Cited | undefined): string | null {
  const noun = DIMENSIONS.exec(question)?.[1]?.toLowerCase();
  const keys = (b?.structured?.keys ?? []) as BreakdownKey[];
  const key = noun ? keys.find((k) => k.label.toLowerCase().includes(noun) && k.top.length > 0) : undefined;
  const v = key?.top[0];
  if (!key || !v) return null;
  const what = b?.structured?.compare === 'errors' ? 'failing requests' : b?.structured?.compare === 'slow' ? 'slow requests' : 'requests this window';
  return `${key.label} ${v.value}: ${Math.round(v.anomalyShare * 100)}% of the ${what} against ${Math.round(v.baselineShare * 100)}% of the rest`;
}

/** The commonest error messages in a logs result, with how many of the logs read carry each. */
function commonErrors(logs: Cited | undefined): string | null {
  const list = (logs?.structured?.logs ?? []) as { body: string }[];
  if (list.length === 0) return null;
  const counts = new Map<string, number>();
  for (const l of list) counts.set(l.body.slice(0, 160), (counts.get(l.body.slice(0, 160)) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 2);
  return top.map(([body, n]) => `"${body}" (${n} of the ${list.length} newest error logs)`).join(', ');
}

export function composeAnswer(i: AnswerInput): string {
  const { u, results } = i;
  const summaries = results.filter((r) => r.name === 'coral_query_summary');
  // "since the deploy": the second summary covers [anchor, now].
  const summary = i.anchored && !i.anchored.compare ? summaries[summaries.length - 1] : summaries[0];
  const topo = results.find((r) => r.name === 'coral_get_service_topology');
  const states = summaryStates(summary);
  // A service's own metrics over the answer's window, not the before/after reads of a comparison.
  const c = i.anchored?.compare;
  const aside = (r: Cited) => c !== undefined && (r.args.end === c.before.end || r.args.start === c.after.start);
  const metricsOf = (svc: string) => results.find((r) => r.name === 'coral_query_metrics' && r.args.service === svc && !r.args.protocol && !aside(r));
  const body: string[] = [];
  let head: string | null = absentLine(u, i.services);
  const missing = missingInfra(u, topo, i.services);
  if (missing) head = missingInfraLine(missing, u, topo, i.services);
  else if (head && u.infra.length > 0) head = null;

  if (head) {
    body.push(`Nothing was answered about another service: the question named "${missing ?? u.absent[0]}", which is not in this colony.`);
  } else if (u.kind === 'compare' && i.anchored?.compare) {
    const lines = compareLines(u, i.anchored, results, summary);
    head = lines[0];
    body.push(...lines.slice(1));
  } else if (u.route || (u.operation && u.services.length === 0)) {
    const metrics = results.filter((r) => r.name === 'coral_query_metrics');
    const edges = topologyEdges(topo);
    const hit: RouteHit | undefined = u.route ? routeServer(u.route, metrics, edges) : operationServer(u.operation ?? '', metrics);
    const asked = u.route ? `${u.route.method ? `${u.route.method} ` : ''}${u.route.path}` : (u.operation ?? '');
    if (!hit) {
      head = `No service serves ${asked} in this window: no operation seen matches it${cite(topo)}.`;
      const routes = metrics.flatMap((m) => servedRows(m).filter((r) => r.protocol === 'http').map((r) => `${operation(r)} (${m.args.service})`));
      if (routes.length > 0) body.push(`Routes seen: ${[...new Set(routes)].slice(0, 12).join(', ')}.`);
    } else {
      const r = hit.rows.sort((a, b) => b.requests - a.requests)[0];
      const state = states.find((s) => s.service === hit.service);
      const regress = state?.signals.find((x) => x.startsWith(`${operation(r)} P95`) || x.startsWith(`${operation(r)} errors`));
      const errs = u.signals.includes('errors') && !u.signals.includes('latency');
      const bad = Boolean(regress) || r.errorRate > 0.05;
      const yes = u.kind === 'verdict' ? `${(u.polarity === 'good') !== bad ? 'Yes' : 'No'}: ` : '';
      head = yes + (errs
        ? `${operation(r)} on ${hit.service}: ${formatPercent(r.errorRate)} errors (${formatCount(r.errors)} of ${formatCount(r.requests)})${cite(hit.result)}.`
        : `${operation(r)} on ${hit.service}: P95 ${ms(r.p95Ms)} (P50 ${ms(r.p50Ms)}, P99 ${ms(r.p99Ms)}) over ${formatCount(r.requests)} requests ${tagOf(r.source)}${cite(hit.result)}${regress ? `; ${regress}${cite(summary)}` : '; no change beyond noise against the window before'}.`);
      body.push(`${hit.service} serves ${asked}; every source's view of it:`, ...hit.rows.map((x) => `  ${tagOf(x.source)} ${operation(x)}: P50 ${ms(x.p50Ms)}, P95 ${ms(x.p95Ms)}, P99 ${ms(x.p99Ms)}, ${formatPercent(x.errorRate)} errors over ${formatCount(x.requests)} requests${cite(hit.result)}`));
    }
  } else if (u.kind === 'saturation' || (u.infra.length > 0 && u.services.length === 0)) {
    const lines = saturationHeadline(u, states, summary, topo);
    head = lines[0];
    body.push(...gaugeLines(results), ...lines.slice(1));
  } else if (u.kind === 'rollback') {
    head = rollbackHeadline(u, states, summary);
  } else if (u.kind === 'list' && results.some((r) => r.name === 'coral_query_breakdown')) {
    const b = results.find((r) => r.name === 'coral_query_breakdown');
    const where = dimensionLine(u.question, b) ?? concentration(b?.structured as Parameters<typeof concentration>[0]);
    head = where ? `${where}${cite(b)} (in ${b?.args.service}'s requests).` : `Nothing in particular: no attribute value stands out in ${b?.args.service}'s requests${cite(b)}.`;
  } else if (u.kind === 'list') {
    head = listHeadline(u, states, summary);
  } else if (u.services.length > 0) {
    const first = states.find((s) => s.service === u.services[0].name);
    const tr = results.find((r) => r.name === 'coral_query_traces' && r.args.service === u.services[0].name);
    const onlyTraces = u.signals.length === 1 && u.signals[0] === 'traces' && u.kind !== 'verdict';
    head = onlyTraces && tr
      ? (traceList(tr).length > 0
        ? `${stated(u.services[0])}'s traces, failing first, then slowest: ${traceList(tr).slice(0, 3).map((t) => `${t.traceId} (${formatMs(t.durationMs)}${t.errorCount > 0 ? `, ${t.errorCount} error spans` : ''})`).join(', ')}${cite(tr)}.`
        : `${stated(u.services[0])}: no traces in this window${cite(tr)}.`)
      : first ? serviceHeadline(u, first, metricsOf(first.service), summary) : `${stated(u.services[0])} sent no requests in this window${cite(summary)}.`;
    const logs = results.find((r) => r.name === 'coral_query_telemetry_logs');
    const errs = commonErrors(logs);
    if (logs && head.endsWith('.')) head = `${head.slice(0, -1)}; ${errs ? `commonest error: ${errs}${cite(logs)}` : `no error logs from ${u.services[0].name} in this window${cite(logs)}`}.`;
  }
  if (head === null) head = `Could not tell what to measure in "${u.question.trim()}"; here is what the colony shows.`;

  for (const s of u.services.slice(0, 3)) {
    const st = states.find((x) => x.service === s.name);
    if (st) body.push(stateLine(st, summary));
    const m = metricsOf(s.name);
    if (m) body.push(...metricLines(s.name, m, u.percentiles));
    const events = summaryEvents(summaries[0]).filter((e) => e.serviceName === s.name);
    for (const e of events.slice(0, 3)) body.push(`  ${s.name} ${e.kind} at ${e.time.slice(11, 16)} UTC: ${e.title}${cite(summaries[0])}`);
    if (st?.trigger) body.push(`  ${s.name}'s change started ${st.onset ? `~${st.onset.slice(11, 16)} UTC` : ''} just after the ${st.trigger}${cite(summary)}.`);
    const tr = results.find((r) => r.name === 'coral_query_traces' && r.args.service === s.name);
    const analysis = tr?.structured?.analysis;
    for (const t of traceList(tr).slice(0, 3)) body.push(`  ${t.traceId} ${t.rootService}: ${t.rootName} ${formatMs(t.durationMs)}${t.errorCount > 0 ? `, ${t.errorCount} error spans` : ''}${cite(tr)}`);
    if (typeof analysis === 'string' && analysis) body.push(`  Traces: ${analysis}${cite(tr)}`);
  }
  const intake = summary?.structured?.intake;
  if (typeof intake === 'string' && intake !== '') body.push(`Across the colony: ${intake}${cite(summary)}`);
  const matched = u.services.filter((s) => !s.exact);
  if (matched.length > 0) body.push(`Matched: ${matched.map(stated).join(', ')}.`);
  if (u.absent.length > 0 && !head.startsWith('There is no')) body.push(`Not in this colony: ${u.absent.join(', ')} (no service by that name; nothing was answered about it).`);
  const top = standOutOf(summary)[0];
  if (top && !u.services.some((s) => s.name === top.service) && u.kind !== 'list') body.push(`Across the colony, ${top.service} stands out most: ${ownSignals(top).slice(0, 2).join('; ')}${cite(summary)}.`);
  body.push(windowLine(i.anchored ?? i.window, u));
  const firstState = u.services[0] ? states.find((s) => s.service === u.services[0].name) : undefined;
  const next = u.services[0]
    ? `Next: ${firstState && healthWord(firstState) !== 'healthy' ? `"why is ${u.services[0].name} ${healthWord(firstState) === 'slow' ? 'slow' : 'failing'}?" for its traces, or ` : ''}"what's going on?" for the first pass over the whole colony.`
    : 'Next: "what\'s going on?" for the first pass over the whole colony, or name a service ("is checkout healthy?").';
  return [head, '', ...body, '', next, '', 'Automatic triage (no model configured): the tools\' findings, not a diagnosis.'].join('\n');
}
