import { join } from 'node:path';
import { CoralError } from '../core/errors.js';
import { type AskSettings, resolveAskSettings } from '../agent/config.js';
import { historyForTurn } from '../agent/conversation.js';
import { type AskWindow, windowToolArgs } from '../agent/ask-window.js';
import type { AgentEvent, Message } from '../agent/events.js';
import { runTurn } from '../agent/loop.js';
import { createModel, createProvider } from '../agent/providers/index.js';
import type { ModelProvider } from '../agent/providers/types.js';
import type { AgentSession, ColonyChoice } from '../agent/setup.js';
import { sessionSettings } from '../agent/session-settings.js';
import { coralHome } from '../core/paths.js';
import { privateDir, writePrivateFile } from '../core/private-files.js';
import { hasConsent } from '../agent/consent.js';
import { CommandError, complete, parseCommand } from './commands.js';
import { renumberCitations } from './citations.js';
import type { EngineEvent } from './engine-events.js';
import { exportMarkdown, exportResults } from './export.js';
import { sessionLines, sessionRecord } from './session-record.js';
import { jsonForTerminal } from '../core/terminal-text.js';
import { DEFAULT_LIVE_INTERVAL_MS, type LiveView, LivePoller, liveViewOf } from './live.js';
import { InputQueue, queuedLabel } from './input-queue.js';
import { LoadProgress } from './load-progress.js';
import { FIRST_LOOK_MINUTES as EARLY_MINUTES } from '../demo/first-look.js';

/**
 * The console's engine: the agent session, the model, the conversation and the `:` commands.
 * It knows nothing of Ink; the UI subscribes to its events and calls its actions.
 */
export type { EngineEvent };

export interface EngineOptions extends ColonyChoice {
  model?: string;
  /** How often a running colony's views are asked again (default 5 s). */
  liveIntervalMs?: number;
  /** The window every question and the first look are about (--since/--from/--to); absent: the last 30 minutes. */
  window?: AskWindow;
}

export const DEFAULT_SCENARIO = 'payment-failure';
const MODEL_EXAMPLES = ':model ollama:llama3.2, :model openai:gpt-4o-mini, :model anthropic:claude-sonnet-4-5, :model replay:payment-failure, :model triage:automatic';
const GENERIC_QUESTION = 'What is wrong right now, and where should I look first?';

/** A model that cannot be reached says only "Connection error.": name where it was looked for (pure). */
export function explainModelError(message: string, model: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!/connection error|ECONNREFUSED|fetch failed|ENOTFOUND/i.test(message)) return message;
  const where = model.startsWith('ollama:') ? ` at ${env.OLLAMA_BASE_URL ?? 'http://localhost:11434'} (is \`ollama serve\` running, and the model pulled?)` : ' (check the network, the API key, and the *_BASE_URL variable if you set one)';
  return `${message} Could not reach ${model}${where}. :model switches to another model.`;
}

export class ConsoleEngine {
  private listeners = new Set<(e: EngineEvent) => void>();
  private session: AgentSession | null = null;
  private provider: ModelProvider | null = null;
  private settings: AskSettings | null = null;
  private messages: Message[] = [];
  private abort: AbortController | null = null;
  private readonly log: { at: string; event: EngineEvent }[] = [];
  private services: string[] = [];
  private scenarios: string[] = [];
  private commandSeq = 0;
  /** Tool calls started this session (turns and `:` commands alike), and each call's number. */
  private callSeq = 0;
  private readonly seqOf = new Map<string, number>();
  /** The model chosen with `:model`, kept across `:load`. */
  private chosenModel: string | undefined;
  private poller: LivePoller | null = null;
  /** A demo's hour is still loading (newest first). */
  private loading = false;
  /** How much of a demo's hour is in (newest first), and who waits for how much. */
  private loaded = new LoadProgress();
  /** Questions and `:` lines sent before they could run: run in order once they can. */
  private readonly queue = new InputQueue();
  /** The question Enter sends on an empty input: the recorded investigation's, or a generic one. */
  defaultQuestion = GENERIC_QUESTION;

  constructor(private opts: EngineOptions) {}

  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: EngineEvent): void {
    if (e.type !== 'refresh' && e.type !== 'queue') this.log.push({ at: new Date().toISOString(), event: e });
    for (const l of this.listeners) l(e);
  }

  describeColony(): { colony: string; source: string } {
    if (this.opts.colony) return { colony: this.opts.colony, source: 'remote colony' };
    if (this.opts.db) return { colony: this.opts.db, source: 'colony file' };
    if (this.opts.clickhouse) return { colony: this.opts.clickhouse, source: 'ClickHouse colony' };
    return { colony: 'embedded', source: `demo: ${this.opts.demo ?? DEFAULT_SCENARIO}` };
  }

  private choice(): ColonyChoice {
    return this.opts.colony || this.opts.db || this.opts.clickhouse ? this.opts : { ...this.opts, demo: this.opts.demo ?? DEFAULT_SCENARIO };
  }

  /**
   * Resolves the settings and the model, before the UI takes the screen: a cloud model's consent
   * question is asked on the normal terminal. Returns the model.
   */
  prepare(): ModelProvider {
    const { settings, recorded } = sessionSettings(this.choice(), this.opts.model);
    this.defaultQuestion = recorded?.question ?? GENERIC_QUESTION;
    this.settings = settings;
    this.provider = createModel(settings);
    return this.provider;
  }

  /** Connects the tools; the demo loads in the background while the UI is up. */
  async start(): Promise<void> {
    const choice = this.choice();
    if (!this.settings || !this.provider) this.prepare();
    const settings = this.settings as AskSettings;
    this.emit({ type: 'status', patch: { ...this.describeColony(), model: this.modelLabel(), loading: choice.demo ? 0 : null } });
    // Said at once, before the colony opens (in the first frame when the UI took it already): what is typed meanwhile is queued.
    if (this.welcomed) this.welcomed = false;
    else this.emit({ type: 'notice', text: this.welcome() });
    const { listScenarios, readMeta } = await import('../demo/files.js');
    this.scenarios = listScenarios().map((s) => s.name);
    this.loaded = new LoadProgress();
    this.demoMinutes = choice.demo ? readMeta(choice.demo).durationSec / 60 : 0;
    // The tool servers' code (MCP, the colony's tools) loads after the first frame.
    const { openAgentSession } = await import('../agent/setup.js');
    try {
      this.session = await openAgentSession(choice, {
        mcpServers: settings.mcpServers,
        onProgress: (f) => {
          this.loaded.report(f);
          this.emit({ type: 'status', patch: { loading: f } });
        },
        firstLook: true,
        // Stderr would land under the full-screen UI: say it in the chat.
        onNotice: (line) => this.emit({ type: 'notice', text: line }),
      });
    } catch (err) {
      if (!choice.colony) throw err;
      // openAgentSession said what happened (refused, or unreachable) and what to do; the status bar says which.
      const { ColonyConnectError } = await import('../agent/mcp-http.js');
      const refused = err instanceof ColonyConnectError && err.refused;
      this.emit({ type: 'status', patch: { message: `✗ colony ${refused ? 'refused' : 'unreachable'}: ${choice.colony}` } });
      const said = (err as Error).message;
      const hint = err instanceof CoralError && err.hint ? ` ${err.hint}` : '';
      throw new Error(`${said}${/[.!?]$/.test(said) ? '' : '.'}${hint} Or start without --colony for the demo.`);
    }
    for (const w of this.session.hub.warnings) this.emit({ type: 'notice', text: w });
    this.loading = Boolean(choice.demo);
    this.session.ready.then(
      () => {
        this.loading = false;
        this.emit({ type: 'status', patch: { loading: null } });
      },
      (err: Error) => this.emit({ type: 'notice', text: `loading failed: ${err.message}`, error: true }),
    );
    this.services = [...this.session.services];
    if (this.session.live) this.startLive();
    if (this.opts.window) this.emit({ type: 'notice', text: `Window: ${this.opts.window.label}; every question and the first look use it.` });
    this.firstLook(this.session);
    this.pump();
  }

  /** The welcome was put in the first frame (takeWelcome): the first start says it no more. */
  private welcomed = false;

  private welcome(): string {
    return `Ask a question below, or press Enter for: "${this.defaultQuestion}". Tab moves between panes, ? lists the keys, : runs a command.`;
  }

  /** The welcome, for the UI's first frame (after prepare()); start() then leaves it out. */
  takeWelcome(): string {
    this.welcomed = true;
    return this.welcome();
  }

  /** A demo's length in minutes (0: not a demo). */
  private demoMinutes = 0;

  /**
   * A first look without a model: where to look first (shown in the Summary tab), and the worst
   * traces of the window, failing first, then the slowest (loaded behind it in the Traces tab).
   * Both start at once, so they are calls 1 and 2 whatever is asked meanwhile.
   */
  private firstLook(session: AgentSession): void {
    // A demo loads newest first: the traces are answered from the newest minutes at once, then
    // refreshed in place once the hour is in (as a live view is), unless another call came in between.
    // A chosen window need not hold the newest minutes: its first look waits for the whole hour,
    // which must not be held back for a look from those minutes.
    const partial = this.loading && !this.opts.window;
    if (this.opts.window) session.firstLookShown();
    const summary = this.firstSummary(session, partial);
    const traces = { max_traces: 5, ...windowToolArgs(this.opts.window, '30m') };
    const shown = this.callTool('coral_query_traces', traces, { quiet: true, early: partial });
    // Both shown (or failed): the rest of the hour may load at full speed.
    void Promise.all([summary, shown]).finally(() => session.firstLookShown());
    void shown.then((seq) => {
      if (!partial || seq === undefined) return;
      session.ready.then(async () => {
        if (this.session !== session || this.callSeq !== seq) return;
        const r = await session.hub.call(`first-look-${seq}`, 'coral_query_traces', traces, { timeoutMs: 60_000 });
        if (r.ok && r.structured && this.session === session && this.callSeq === seq) this.emit({ type: 'refresh', tool: 'coral_query_traces', args: traces, structured: r.structured });
      }, () => undefined);
    });
  }

  /**
   * Where to look first. While a demo's hour loads (newest first) it is worked out from the newest
   * EARLY_MINUTES (their second half against their first: a window needs the one before it) and
   * says so; the 30-minute summary replaces it in place once the hour is in.
   */
  private firstSummary(session: AgentSession, partial: boolean): Promise<unknown> {
    const full = windowToolArgs(this.opts.window, '30m');
    const early = partial && this.demoMinutes >= 2 * EARLY_MINUTES;
    if (!early) return this.callTool('coral_query_summary', full);
    const args = { time_range: `${EARLY_MINUTES / 2}m` };
    // The load holds once these minutes are in (setup.ts), until this look and the traces are shown.
    const newest = this.loaded.reached(EARLY_MINUTES / this.demoMinutes, session.ready);
    const shown = this.callTool('coral_query_summary', args, { early: true, after: newest, newest: EARLY_MINUTES });
    void shown.then(() => session.ready).then(async () => {
      if (this.session !== session) return;
      const r = await session.hub.call(`first-look-summary`, 'coral_query_summary', full, { timeoutMs: 60_000 });
      if (r.ok && r.structured && this.session === session) {
        this.shown('coral_query_summary', full, r.structured);
        this.emit({ type: 'refresh', tool: 'coral_query_summary', args: full, structured: r.structured });
      }
    }, () => undefined);
    return shown;
  }

  /** Enter on a service in the Summary tab: its metrics (into the Metrics tab) and its worst traces (shown). */
  openService(service: string): void {
    void this.callTool('coral_query_metrics', { service }, { quiet: true });
    void this.callTool('coral_query_traces', { service, max_traces: 10 });
    this.emit({ type: 'status', patch: { message: `${service}: worst traces here, its metrics on tab 3` } });
  }

  /** Enter on a Metrics row: the service's worst traces, a page of them, shown (the UI filters them to the operation). */
  serviceTraces(service: string): void {
    void this.callTool('coral_query_traces', { service, max_traces: 50 });
  }

  /**
   * The trace list read further (or again in another order): on the side, not a call of the
   * session (paging is not something the user asked the colony), answered as a refresh with its offset.
   */
  moreTraces(tool: string, args: Record<string, unknown>): void {
    const session = this.session;
    if (!session) return;
    void session.hub.call(`page-${++this.commandSeq}`, tool, args, { timeoutMs: 60_000 }).then((r) => {
      if (this.session !== session) return;
      // A failed page ends the paging (an empty page) and says why.
      this.emit({ type: 'refresh', tool, args, structured: r.ok && r.structured ? r.structured : { traces: [], matchedTraces: 0 } });
      if (!r.ok) this.emit({ type: 'status', patch: { message: `✗ more traces: ${r.text.split('\n')[0]}` } });
    });
  }

  /** l on a span with links: the linked trace, merged, from the last day (a batch's messages may be hours old). */
  openTrace(traceId: string): void {
    void this.callTool('coral_query_traces', { trace_id: traceId, time_range: '24h' });
  }

  /** b on a service (Summary or Metrics tab): what its failing or slow requests have in common, shown. */
  breakdownService(service: string): void {
    void this.callTool('coral_query_breakdown', { service });
    this.emit({ type: 'status', patch: { message: `${service}: breakdown of its failing or slow requests` } });
  }

  private startLive(): void {
    const session = this.session as AgentSession;
    this.poller = new LivePoller({
      intervalMs: this.opts.liveIntervalMs ?? DEFAULT_LIVE_INTERVAL_MS,
      call: (id, tool, args) => session.hub.call(id, tool, args, { timeoutMs: 30_000 }),
      onChange: (r) => {
        this.learnServices(r.tool, r.structured);
        this.emit({ type: 'refresh', ...r });
      },
    });
    this.poller.start();
    this.emit({ type: 'status', patch: { live: 'on' } });
  }

  /** p: stops the live refresh, or starts it again at once. */
  setLivePaused(paused: boolean): void {
    if (!this.poller) return;
    this.poller.paused = paused;
    if (!paused) void this.poller.tick();
    this.emit({ type: 'status', patch: { live: paused ? 'paused' : 'on' } });
  }

  /** A summary names every service that sent telemetry: `:` completion learns them (a live colony gains some). */
  private learnServices(tool: string, structured: Record<string, unknown> | undefined): void {
    if (tool !== 'coral_query_summary' || !Array.isArray(structured?.services)) return;
    for (const c of structured.services as { service: string }[]) if (!this.services.includes(c.service)) this.services.push(c.service);
  }

  /** What the user was shown: the live views follow it, completion learns its services. */
  private shown(tool: string, args: Record<string, unknown>, structured: Record<string, unknown> | undefined): void {
    this.poller?.note(tool, args, structured);
    this.learnServices(tool, structured);
  }

  private modelLabel(): string {
    const n = this.provider?.name ?? 'none';
    if (n.startsWith('replay:')) return `${n} (recorded)`;
    if (n === 'triage:automatic') return 'no model: automatic triage';
    return n;
  }

  get busy(): boolean {
    return this.abort !== null;
  }

  /**
   * A question: asked at once, or queued (shown as such) while the colony opens or a turn runs.
   * Resolves once its turn has run, or was dropped by Ctrl-C.
   */
  ask(question: string): Promise<void> {
    return this.enqueue('ask', question);
  }

  private enqueue(kind: 'ask' | 'command', text: string): Promise<void> {
    const ran = new Promise<void>((done) => this.queue.push({ kind, text, done }));
    this.pump();
    this.emitQueue();
    return ran;
  }

  private emitQueue(): void {
    this.emit({ type: 'queue', items: this.queue.labels(this.defaultQuestion) });
  }

  /** Runs what waits, in order: `:` lines at once, a question when no turn runs (its end runs the next). */
  private pump(): void {
    let took = false;
    while (this.session && this.provider && !this.abort) {
      const item = this.queue.shift();
      if (!item) break;
      took = true;
      if (item.kind === 'command') {
        this.runCommand(item.text);
        item.done();
        continue;
      }
      // turn() holds `abort` from its first step: the loop stops here until it ends.
      void this.turn(item.text).finally(() => {
        item.done();
        this.pump();
      });
    }
    if (took) this.emitQueue();
  }

  /** One agent turn; its events flow to the UI as they come. */
  private async turn(question: string): Promise<void> {
    if (!this.session || !this.provider || this.abort) return;
    const q = question.trim() || this.defaultQuestion;
    this.abort = new AbortController();
    try {
      // The same settings as coral ask: max_tool_rounds, and the history pruned to the conversation limits.
      const settings = this.settings as AskSettings;
      this.messages = historyForTurn(this.messages, settings);
      const turnCalls: number[] = [];
      const argsOf = new Map<string, Record<string, unknown>>();
      for await (const ev of runTurn({ provider: this.provider, hub: this.session.hub, system: this.session.system, messages: this.messages, question: q, maxToolRounds: settings.maxToolRounds, signal: this.abort.signal, window: this.opts.window })) {
        if (ev.type === 'tool_call_started') {
          turnCalls.push(this.startCall(ev.id));
          argsOf.set(ev.id, ev.args);
        }
        if (ev.type === 'tool_call_finished' && ev.ok) this.shown(ev.tool, argsOf.get(ev.id) ?? {}, ev.structured);
        if (ev.type === 'message_end') this.emit({ type: 'agent', event: { ...ev, text: renumberCitations(ev.text, turnCalls) } });
        else if (ev.type === 'error') this.emit({ type: 'agent', event: { ...ev, message: explainModelError(ev.message, this.provider?.name ?? 'the model') } });
        else this.emit({ type: 'agent', event: ev, seq: this.seqOf.get((ev as { id?: string }).id ?? '') });
      }
    } catch (err) {
      this.emit({ type: 'notice', text: (err as Error).message, error: true });
    } finally {
      this.abort = null;
    }
  }

  /** Ctrl-C: the running turn stops and what was queued behind it is dropped (the input history keeps the questions). */
  cancel(): void {
    this.abort?.abort();
    const dropped = this.queue.clear();
    if (dropped.length === 0) return;
    this.emitQueue();
    this.emit({ type: 'notice', text: `Dropped ${dropped.length === 1 ? 'the queued input' : `${dropped.length} queued inputs`}: ${dropped.map((d) => `"${queuedLabel(d, this.defaultQuestion)}"`).join(', ')} (↑ recalls a question).` });
  }

  /** Numbers a call in the order calls start; its id is unique in the session. */
  private startCall(id: string): number {
    this.seqOf.set(id, ++this.callSeq);
    return this.callSeq;
  }

  /** A failure outside any turn (startup), shown where the user is looking: the chat. */
  fail(message: string): void {
    this.emit({ type: 'notice', text: message, error: true });
  }

  completions(line: string): string[] {
    return complete(line, { scenarios: this.scenarios, services: this.services });
  }

  /** A `:` command: the same tools the agent uses, called directly. */
  runCommand(line: string): void {
    let cmd;
    try {
      cmd = parseCommand(line);
    } catch (err) {
      this.emit({ type: 'notice', text: (err as CommandError).message, error: true });
      return;
    }
    if (cmd.kind === 'help') return this.emit({ type: 'help' });
    if (cmd.kind === 'export') {
      const paths = this.exportSession();
      return this.emit({ type: 'notice', text: `Exported to ${paths[0]} (full tool results and the session as JSON lines beside it)` });
    }
    if (cmd.kind === 'model') {
      try {
        const next = createProvider(cmd.model, resolveAskSettings({ flags: { model: cmd.model } }));
        const provider = next.name.split(':')[0];
        if (next.cloud && !hasConsent(provider)) {
          return this.emit({ type: 'notice', text: `${next.name} would send telemetry to ${provider}'s cloud API: start the console with --yes (or run coral ask --yes --model ${next.name} once) to allow it.`, error: true });
        }
        this.provider = next;
        this.chosenModel = cmd.model;
        this.emit({ type: 'status', patch: { model: this.modelLabel() } });
        return this.emit({ type: 'notice', text: `Model: ${this.modelLabel()}` });
      } catch (err) {
        return this.emit({ type: 'notice', text: `${(err as Error).message} Examples: ${MODEL_EXAMPLES}.`, error: true });
      }
    }
    // A tool or a load needs the colony: while it opens, the line waits its turn.
    if (!this.session) return void this.enqueue('command', line);
    if (cmd.kind === 'load') return void this.load(cmd.scenario);
    if (cmd.kind === 'chart') return this.chart(cmd.service, cmd.calls);
    void this.callTool(cmd.tool, cmd.args);
  }

  /** `:chart`: the chart opens at once, then one coral_query_timeseries call per signal fills it; the live refresh follows these signals only. */
  private chart(service: string, calls: { key: string; args: Record<string, unknown> }[]): void {
    this.poller?.followCharts(calls.map((c) => liveViewOf('coral_query_timeseries', c.args)).filter((v): v is LiveView => v !== null));
    this.emit({ type: 'chart', service, signals: calls.map((c) => c.key) });
    for (const c of calls) void this.callTool('coral_query_timeseries', c.args);
  }

  /**
   * Runs one tool as a `:` command; its number in the session, or undefined without a session.
   * `after`: the call is numbered at once but asked once this resolves; `newest`: it is answered
   * from a demo's newest minutes only, as many as this (the view says so).
   */
  private async callTool(tool: string, args: Record<string, unknown>, o: { quiet?: boolean; early?: boolean; after?: Promise<void>; newest?: number } = {}): Promise<number | undefined> {
    if (!this.session) return undefined;
    args = this.inWindow(tool, args);
    const session = this.session;
    const id = `cmd-${++this.commandSeq}`;
    const seq = this.startCall(id);
    this.emit({ type: 'agent', event: { type: 'tool_call_started', id, server: session.hub.serverOf(tool), tool, args }, seq, quiet: o.quiet });
    await o.after;
    const t = performance.now();
    const r = await session.hub.call(id, tool, args, { timeoutMs: 60_000, early: o.early });
    if (r.ok) this.shown(tool, args, r.structured);
    this.emit({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok: r.ok, durationMs: Math.round(performance.now() - t), text: r.text, structured: r.structured }, seq, quiet: o.quiet, newest: o.newest });
    return seq;
  }

  /** The console's window on a windowed call that names none itself (`:traces --since 5m` keeps its own). */
  private inWindow(tool: string, args: Record<string, unknown>): Record<string, unknown> {
    const w = this.opts.window;
    if (!w || !this.session || 'time_range' in args || 'start' in args || 'end' in args || 'trace_id' in args) return args;
    const spec = this.session.hub.tools().find((t) => t.name === tool);
    const takes = (spec?.parameters.properties as Record<string, unknown> | undefined)?.start !== undefined;
    return takes ? { ...args, ...windowToolArgs(w, '30m') } : args;
  }

  private async load(scenario: string): Promise<void> {
    if (!this.scenarios.includes(scenario)) {
      this.emit({ type: 'notice', text: `Unknown scenario "${scenario}". Available: ${this.scenarios.join(', ')}`, error: true });
      return;
    }
    // The turn stops; what was queued behind this :load runs in the new scenario.
    this.abort?.abort();
    this.stopLive();
    await this.session?.close();
    this.session = null;
    this.messages = [];
    // A model chosen with :model stays; else the new scenario brings its own recorded investigation.
    this.opts = { demo: scenario, model: this.chosenModel ?? this.opts.model };
    this.emit({ type: 'clear' });
    this.prepare();
    await this.start();
  }

  /**
   * The session as an incident note (Markdown), every call's full result beside it (Markdown), and
   * the session record as JSON lines (questions, calls with arguments and results, answers).
   */
  exportSession(dir = join(coralHome(), 'exports')): string[] {
    // Exports hold telemetry and the conversation: private, like the conversations folder.
    privateDir(dir);
    const now = new Date().toISOString();
    const stamp = now.replace(/[:.]/g, '-');
    const name = `coral-session-${stamp}`;
    const record = sessionRecord(this.log, { ...this.describeColony(), model: this.modelLabel() }, now);
    const paths = [join(dir, `${name}.md`), join(dir, `${name}.results.md`), join(dir, `${name}.jsonl`)];
    writePrivateFile(paths[0], exportMarkdown(record, `${name}.results.md`));
    writePrivateFile(paths[1], exportResults(record));
    // Read with cat too: the JSON lines escape what a terminal would act on.
    writePrivateFile(paths[2], `${sessionLines(record).map((l) => jsonForTerminal(l)).join('\n')}\n`);
    return paths;
  }

  private stopLive(): void {
    this.poller?.stop();
    this.poller = null;
    this.emit({ type: 'status', patch: { live: null } });
  }

  async close(): Promise<void> {
    this.cancel();
    this.poller?.stop();
    await this.session?.close();
    this.session = null;
  }
}
