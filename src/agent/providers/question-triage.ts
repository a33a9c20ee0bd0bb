import type { Message, ToolCall, ToolResult } from '../events.js';
import { servicesInPrompt, timeInPrompt } from '../prompt.js';
import { type Understanding, understand } from '../understand/index.js';
import { ownSignals, healthWord } from '../understand/verdict.js';
import { type Cited, standOutOf, summaryEvents } from './question-facts.js';
import { composeAnswer } from './question-answer.js';
import { type PlanContext, anchoredWindow, fixedWindow, planFirst, planSecond } from './question-plan.js';
import { TRIAGE_MODEL, TriageProvider, turnResults } from './triage.js';
import type { ModelChunk, ModelProvider, ModelRequest, ToolSpec } from './types.js';

/**
 * The automatic triage (no model configured) answering the question that was asked. The question is
 * read by the understanding layer (../understand): services (typos forgiven and said), a route,
 * infrastructure, absent names, the kind of answer wanted and the window. A general or vague question
 * gets the first pass over the whole colony, said as such; anything else gets its tool calls (two
 * rounds at most) and an answer that starts with one line answering it. Clearly labelled as not a model.
 */
function lastUser(messages: Message[]): number {
  return messages.map((m) => m.role).lastIndexOf('user');
}

function question(messages: Message[]): string {
  const m = messages[lastUser(messages)];
  return m?.role === 'user' ? m.text : '';
}

/** This turn's tool results, in call order, each with its citation number and its call's arguments. */
function cited(messages: Message[]): Cited[] {
  const args = new Map<string, Record<string, unknown>>();
  for (const m of messages.slice(lastUser(messages) + 1)) if (m.role === 'model') for (const c of m.toolCalls) args.set(c.id, c.args);
  return turnResults(messages).map((r, i) => ({ ...r, n: i + 1, args: args.get(r.id) ?? {} }));
}

const toolRounds = (messages: Message[]) => messages.slice(lastUser(messages) + 1).filter((m) => m.role === 'tool').length;

/** Tools whose schema takes start/end (ISO 8601) beside time_range. */
function startEndTools(tools: readonly ToolSpec[]): Set<string> {
  return new Set(tools.filter((t) => {
    const props = (t.parameters as { properties?: Record<string, unknown> }).properties ?? {};
    return 'start' in props && 'end' in props;
  }).map((t) => t.name));
}

/** The question names nothing to measure: no service, route, operation, infrastructure or absent name. */
const namesNothing = (u: Understanding) => u.services.length === 0 && !u.route && !u.operation && u.absent.length === 0 && u.infra.length === 0;

/** A question for the first pass over the whole colony: it names nothing to measure. */
export function wantsFirstPass(u: Understanding): boolean {
  return namesNothing(u) && ['status', 'diagnosis', 'verdict', 'number'].includes(u.kind);
}

/** The first pass's one-line answer, from its summary: what stands out, or that nothing does. */
export function firstPassHeadline(u: Understanding, summary: ToolResult | undefined): string {
  const intake = summary?.structured?.intake;
  const said = u.kind === 'diagnosis' ? 'the first pass over the whole colony' : 'the first pass over the whole colony (your question reads as a general status question)';
  if (typeof intake === 'string' && intake) return `${u.kind === 'verdict' ? 'No: ' : ''}${intake} [1] (${said}).`;
  const top = standOutOf(summary);
  const events = summaryEvents(summary);
  if (u.signals.includes('change') && events.length > 0) {
    const changes = events.slice(0, 4).map((e) => `${e.serviceName} ${e.kind} at ${e.time.slice(11, 16)} UTC: ${e.title}`).join('; ');
    return `Changes recorded: ${changes} [1]${top[0] ? `; ${top[0].service} stands out (${healthWord(top[0])}: ${ownSignals(top[0]).slice(0, 1).join('')})${top[0].trigger ? `, after the ${top[0].trigger}` : ''}` : '; nothing stands out beyond noise'} (${said}).`;
  }
  const first = top.find((x) => x.onset);
  if (/^\s*(when|what time|since when|how long ago)\b|\bwhen did\b/i.test(u.question) && first?.onset) {
    return `About ${first.onset.slice(11, 16)} UTC: ${first.service}'s change began then (estimated from per-minute rates)${first.trigger ? `, just after the ${first.trigger}` : ''} [1] (${said}).`;
  }
  if (top.length === 0) return `${u.kind === 'verdict' ? (u.polarity === 'good' ? 'Yes: ' : 'No: ') : ''}Nothing stands out: no service changed beyond what its sample size allows [1] (${said}).`;
  const yes = u.kind === 'verdict' ? (u.polarity === 'good' ? 'No: ' : 'Yes: ') : '';
  const rest = top.slice(1, 4).map((s) => `${s.service} (${healthWord(s)})`);
  return `${yes}${top[0].service} stands out (${healthWord(top[0])}: ${ownSignals(top[0]).slice(0, 2).join('; ')}) [1]${rest.length > 0 ? `; also changed: ${rest.join(', ')}` : ''} (${said}).`;
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

/** Parses "The time now is ..." from the system prompt; the wall clock when absent. */
function nowOf(system: string): number {
  const t = timeInPrompt(system);
  return t ?? Date.now();
}

export class QuestionTriageProvider implements ModelProvider {
  readonly name = TRIAGE_MODEL;
  readonly cloud = false;

  constructor(private readonly general: ModelProvider = new TriageProvider()) {}

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const q = question(req.messages);
    const services = servicesInPrompt(req.system);
    const u = understand(q, services);
    const ctx: PlanContext = { nowMs: nowOf(req.system), startEnd: startEndTools(req.tools), tools: new Set(req.tools.map((t) => t.name)), flagWindow: req.window };
    if (u.kind === 'unknown' && namesNothing(u) && q.trim() !== '') {
      yield { type: 'text', text: capabilities(services) };
      return;
    }
    if (q.trim() === '' || wantsFirstPass(u)) {
      yield* this.firstPass(req, u, ctx, signal);
      return;
    }
    const done = cited(req.messages);
    const mayCall = req.tools.length > 0 && req.toolChoice !== 'none';
    // Ids unique in the conversation: the message count differs in every turn.
    const prefix = `triage-${req.messages.length}`;
    const calls: ToolCall[] = !mayCall ? [] : toolRounds(req.messages) === 0 ? planFirst(u, ctx, prefix) : toolRounds(req.messages) === 1 ? planSecond(u, ctx, done, prefix) : [];
    if (calls.length > 0) {
      for (const call of calls) yield { type: 'tool_call', call };
      return;
    }
    yield { type: 'text', text: composeAnswer({ u, services, results: done, window: fixedWindow(u, ctx), anchored: anchoredWindow(u, ctx, done) }) };
  }

  /** The general first pass, its tool calls over the question's window, its text after a one-line answer. */
  private async *firstPass(req: ModelRequest, u: Understanding, ctx: PlanContext, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const w = fixedWindow(u, ctx);
    let headed = false;
    // The words' window goes to the first pass as a flags' window would (start/end on every call).
    for await (const chunk of this.general.generate({ ...req, window: w?.window ?? req.window }, signal)) {
      if (chunk.type === 'text' && !headed) {
        headed = true;
        yield { type: 'text', text: `${firstPassHeadline(u, turnResults(req.messages).find((r) => r.name === 'coral_query_summary'))}\n\n` };
      }
      yield chunk;
    }
    if (headed) yield { type: 'text', text: `\nWindow: ${w ? w.window.label : 'the last 30 min against the 30 min before (the default)'}.\n` };
  }
}
