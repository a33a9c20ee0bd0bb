import { writeFileSync } from 'node:fs';
import { CoralError, describeError } from '../core/errors.js';
import { formatCount } from '../core/format.js';
import { parseIntOption } from '../core/args.js';
import { takeConfigNotes } from '../agent/config-compat.js';
import { ensureConsent } from '../agent/consent.js';
import { type Conversation, appendTurn, historyForTurn, latestConversation, loadConversation, newConversation, prune } from '../agent/conversation.js';
import type { AgentEvent } from '../agent/events.js';
import { runTurn } from '../agent/loop.js';
import { createModel, providerOf } from '../agent/providers/index.js';
import type { RecordedSession } from '../agent/providers/replay.js';
import { type AgentSession, type ColonyChoice, openAgentSession } from '../agent/setup.js';
import { sessionSettings } from '../agent/session-settings.js';
import { jsonForTerminal, terminalSafe } from '../core/terminal-text.js';
import { type AskJson, citationsOf } from './ask-output.js';
import { type WindowFlags, askWindowOf } from './window-flags.js';

export interface AskOptions extends ColonyChoice, WindowFlags {
  model?: string;
  json?: boolean;
  /** Print the answer as it is written (the default on a terminal). */
  stream?: boolean;
  /** Print every agent event as a JSON line. */
  events?: boolean;
  continue?: boolean;
  resume?: string;
  record?: string;
  yes?: boolean;
  maxToolRounds?: string;
}

const out = (s: string) => process.stdout.write(s);
const err = (s: string) => process.stderr.write(s);

function short(args: Record<string, unknown>): string {
  const s = jsonForTerminal(args);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The colony a saved conversation used (its id: demo:<scenario>, a URL, a file, or default), as flags. */
export function colonyOf(colony: string, token?: string): ColonyChoice {
  if (colony.startsWith('demo:')) return { demo: colony.slice(5) };
  if (/^https?:\/\//.test(colony)) return { colony, token };
  return colony === 'default' ? {} : { db: colony };
}

/** `coral ask "<question>"`: one turn of the agent, streamed, then its sources and token usage. */
export async function ask(question: string, o: AskOptions): Promise<void> {
  if (!question.trim()) throw new CoralError('The question is empty.', 'coral ask "why is checkout slow?"');
  if (o.json && (o.stream || o.events)) throw new CoralError(`--json and --${o.stream ? 'stream' : 'events'} cannot be combined.`, '--json prints one object at the end; --stream prints the answer as it is written; --events prints every agent event as a JSON line.');
  if (o.stream && o.events) throw new CoralError('--stream and --events cannot be combined.', '--stream prints the answer as it is written; --events prints every agent event as a JSON line.');
  // Read before anything loads: a bad --from is refused at once.
  const window = askWindowOf(o);
  let conversation: Conversation | null = null;
  let session: AgentSession;
  let setup;
  try {
    conversation = o.resume ? loadConversation(o.resume) : o.continue ? latestConversation() : null;
    // A follow-up goes back to the colony its conversation used, unless a flag names another.
    const flagged = Boolean(o.demo || o.db || o.colony);
    const choice = conversation && !flagged ? colonyOf(conversation.colony, o.token) : o;
    setup = prepare(choice, o);
    if (setup.provider.cloud) await ensureConsent(providerOf(setup.provider.name), { yes: o.yes });
    conversation ??= newConversation(setup.provider.name, setup.colonyId);
    conversation.messages = historyForTurn(conversation.messages, setup.settings);
    session = await openAgentSession(choice, {
      mcpServers: setup.settings.mcpServers,
      onProgress: o.json || o.events ? undefined : (f) => err(process.stderr.isTTY ? `\r\x1b[2Kloading ${choice.demo ?? ''}: ${Math.round(f * 100)}%` : ''),
    });
  } catch (e) {
    // Scripts reading --json get their one object, saying what failed.
    if (o.json) {
      const failed: AskJson = { answer: '', model: setup?.provider.name ?? o.model ?? '', conversation_id: conversation?.id ?? '', finished: 'error', tool_calls: [], citations: [], usage: { input_tokens: 0, output_tokens: 0 }, warnings: [], error: describeError(e) };
      out(`${jsonForTerminal(failed)}\n`);
    }
    throw e;
  }
  const { provider, settings } = setup;
  const quiet = o.json === true || o.events === true;
  // On a terminal the answer appears as it is written; into a file or pipe, once, complete.
  const streamText = o.stream === true || (!quiet && process.stdout.isTTY === true);
  // Config notes (RFD 030 keys mapped, bare model names taken as provider:model) travel with the warnings.
  const warnings: string[] = [...setup.notes];
  if (!quiet) for (const n of setup.notes) err(`note: ${n}\n`);
  if (!quiet) err(`coral: ${provider.name === 'triage:automatic' ? 'no model configured: automatic triage' : provider.name.startsWith('replay:') ? `recorded investigation (${provider.name})` : `model ${provider.name}`} on ${session.colonyId}\n`);
  if (!quiet && window) err(`coral: window ${window.label}\n`);
  for (const w of session.hub.warnings) {
    warnings.push(w);
    if (!quiet) err(`warning: ${w}\n`);
  }
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const before = conversation.messages.length;
  // In call order, as the answer cites them ([n] is the n-th call of the turn).
  const calls: (AskJson['tool_calls'][number] & { text: string })[] = [];
  const byId = new Map<string, (typeof calls)[number]>();
  let atLineStart = true;
  const usage = { input_tokens: 0, output_tokens: 0 };
  let answer = '';
  // The words of the current round so far: a cancelled answer not streamed is still printed.
  let partial = '';
  let finished = 'error' as AskJson['finished'];
  let answeredBy = provider.name;
  let error: string | null = null;
  try {
    for await (const ev of runTurn({ provider, hub: session.hub, system: session.system, messages: conversation.messages, question, maxToolRounds: settings.maxToolRounds, signal: abort.signal, window })) {
      if (o.events) out(`${jsonForTerminal(ev)}\n`);
      track(ev);
      if (!quiet) show(ev);
    }
  } finally {
    process.removeListener('SIGINT', onSigint);
    conversation.model = answeredBy;
    // Appended to the file as it is now: another ask on this conversation may have finished meanwhile.
    appendTurn(conversation, conversation.messages.slice(before), { keep: settings.autoPrune ? (m) => prune(m, settings) : undefined });
    await session.close();
  }
  if (o.record) writeRecording(o.record, question, answeredBy, conversation, before);
  const live = !answeredBy.startsWith('replay:') && !answeredBy.startsWith('triage:');
  if (o.json) {
    const result: AskJson = { answer, model: answeredBy, conversation_id: conversation.id, finished, tool_calls: calls.map(({ text: _, ...c }) => c), citations: citationsOf(answer, calls), usage, warnings, error };
    out(`${jsonForTerminal(result)}\n`);
  } else if (!o.events) {
    const shown = answer || (finished === 'cancelled' ? partial : '');
    if (!streamText && shown) out(terminalSafe(shown.endsWith('\n') ? shown : `${shown}\n`));
    // The sources belong with the answer: `coral ask ... > answer.md` keeps both.
    if (calls.length > 0) out(`\nSources:\n${calls.map((c, i) => `  [${i + 1}] ${c.tool} ${short(c.args)} (${c.ok ? `${c.duration_ms} ms` : 'failed'})`).join('\n')}\n`);
    const tokens = usage.input_tokens + usage.output_tokens > 0 ? `${formatCount(usage.input_tokens)} in, ${formatCount(usage.output_tokens)} out` : live ? 'none' : `none (${answeredBy} is not a live model)`;
    err(`Tokens: ${tokens} · ${answeredBy} · conversation ${conversation.id} (coral ask --continue to follow up)\n`);
  }
  if (finished === 'error') process.exitCode = 1;
  if (finished === 'cancelled') process.exitCode = 130;

  function track(ev: AgentEvent): void {
    switch (ev.type) {
      case 'text_delta':
        partial += ev.text;
        break;
      case 'message_end':
        answer = ev.text;
        break;
      case 'tool_call_started': {
        partial = '';
        const c = { tool: ev.tool, server: ev.server, args: ev.args, duration_ms: 0, ok: false, text: '' };
        calls.push(c);
        byId.set(ev.id, c);
        break;
      }
      case 'tool_call_finished': {
        const c = byId.get(ev.id);
        if (c) Object.assign(c, { duration_ms: ev.durationMs, ok: ev.ok, text: ev.text });
        break;
      }
      case 'usage':
        usage.input_tokens += ev.inputTokens;
        usage.output_tokens += ev.outputTokens;
        break;
      case 'warning':
        warnings.push(ev.message);
        break;
      case 'error':
        error = ev.message;
        break;
      case 'turn_end':
        finished = ev.reason;
        answeredBy = ev.model;
        break;
    }
  }

  function show(ev: AgentEvent): void {
    switch (ev.type) {
      case 'text_delta':
        if (!streamText) break;
        out(terminalSafe(ev.text));
        atLineStart = ev.text.endsWith('\n');
        break;
      case 'message_end':
        if (!atLineStart) out('\n');
        atLineStart = true;
        break;
      case 'tool_call_started':
        // The model's words before its tool calls end their line before the progress lines.
        if (!atLineStart) out('\n');
        atLineStart = true;
        err(`  → ${ev.tool} ${short(ev.args)}\n`);
        break;
      case 'tool_call_finished':
        err(`  ${ev.ok ? '✓' : '✗'} ${ev.tool} (${ev.durationMs} ms)${ev.ok ? '' : `: ${terminalSafe(ev.text.split('\n')[0])}`}\n`);
        break;
      case 'warning':
        err(`warning: ${terminalSafe(ev.message)}\n`);
        break;
      case 'error':
        err(`error: ${terminalSafe(ev.message)}\n`);
        break;
      case 'turn_end':
        if (ev.reason === 'cancelled') err('\ncancelled; the conversation was saved as it stood.\n');
        break;
    }
  }
}

/** Settings and model for this colony; a fallback's consent is asked for when it is about to be used. */
function prepare(choice: ColonyChoice, o: AskOptions) {
  const { colonyId, settings } = sessionSettings(choice, o.model);
  if (o.maxToolRounds) settings.maxToolRounds = parseIntOption('--max-tool-rounds', o.maxToolRounds, 1, 50);
  const provider = createModel(settings, process.env, (p) => ensureConsent(providerOf(p.name), { yes: o.yes }));
  return { colonyId, settings, provider, notes: takeConfigNotes() };
}

/** Saves this turn's model rounds as a session that replay:<file> plays back. */
function writeRecording(path: string, question: string, model: string, c: Conversation, from: number): void {
  const rounds = c.messages.slice(from).flatMap((m) => (m.role === 'model' ? [{ text: m.text || undefined, toolCalls: m.toolCalls.map((t) => ({ name: t.name, args: t.args })) }] : []));
  const session: RecordedSession = { recordedWith: model, question, rounds };
  writeFileSync(path, `${JSON.stringify(session, null, 2)}\n`);
  err(`coral: recorded ${rounds.length} rounds to ${path}\n`);
}
