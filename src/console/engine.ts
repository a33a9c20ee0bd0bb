import { join } from 'node:path';
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
import { exportMarkdown } from './export.js';
import { jsonForTerminal } from '../core/terminal-text.js';
import { DEFAULT_LIVE_INTERVAL_MS, LivePoller } from './live.js';

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
  /** The question Enter sends on an empty input: the recorded investigation's, or a generic one. */
  defaultQuestion = GENERIC_QUESTION;

  constructor(private opts: EngineOptions) {}

  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: EngineEvent): void {
    if (e.type !== 'refresh') this.log.push({ at: new Date().toISOString(), event: e });
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
    const { listScenarios } = await import('../demo/files.js');
    this.scenarios = listScenarios().map((s) => s.name);
    this.emit({ type: 'status', patch: { ...this.describeColony(), model: this.modelLabel(), loading: choice.demo ? 0 : null } });
    // The tool servers' code (MCP, the colony's tools) loads after the first frame.
    const { openAgentSession } = await import('../agent/setup.js');
    try {
      this.session = await openAgentSession(choice, {
        mcpServers: settings.mcpServers,
        onProgress: (f) => this.emit({ type: 'status', patch: { loading: f } }),
        firstLook: true,
        // Stderr would land under the full-screen UI: say it in the chat.
        onNotice: (line) => this.emit({ type: 'notice', text: line }),
      });
    } catch (err) {
      if (!choice.colony) throw err;
      // "fetch failed" alone says nothing: name the URL and what to check.
      this.emit({ type: 'status', patch: { message: `✗ colony unreachable: ${choice.colony}` } });
      throw new Error(`Cannot reach the colony at ${choice.colony} (${(err as Error).message}). Check that it is running (coral colony serve prints its URL), the host and port, and --token if it needs one; or start without --colony for the demo.`);
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
    this.emit({ type: 'notice', text: `Ask a question below, or press Enter for: "${this.defaultQuestion}". Tab moves between panes, ? lists the keys, : runs a command.` });
    this.firstLook(this.session);
  }

  /**
   * A first look without a model: where to look first (shown in the Summary tab), and the worst
   * traces of the window, failing first, then the slowest (loaded behind it in the Traces tab).
   * Both start at once, so they are calls 1 and 2 whatever is asked meanwhile.
   */
  private firstLook(session: AgentSession): void {
    void this.callTool('coral_query_summary', windowToolArgs(this.opts.window, '30m'));
    const traces = { max_traces: 5, ...windowToolArgs(this.opts.window, '30m') };
    // A demo loads newest first: the traces are answered from the newest minutes at once, then
    // refreshed in place once the hour is in (as a live view is), unless another call came in between.
    // A chosen window need not hold the newest minutes: its first look waits for the whole hour,
    // which must not be held back for a look from those minutes.
    const partial = this.loading && !this.opts.window;
    if (this.opts.window) session.firstLookShown();
    void this.callTool('coral_query_traces', traces, { quiet: true, early: partial }).then((seq) => {
      // Shown (or failed): the rest of the hour may load at full speed.
      session.firstLookShown();
      if (!partial || seq === undefined) return;
      session.ready.then(async () => {
        if (this.session !== session || this.callSeq !== seq) return;
        const r = await session.hub.call(`first-look-${seq}`, 'coral_query_traces', traces, { timeoutMs: 60_000 });
        if (r.ok && r.structured && this.session === session && this.callSeq === seq) this.emit({ type: 'refresh', tool: 'coral_query_traces', args: traces, structured: r.structured });
      }, () => undefined);
    });
  }

  /** Enter on a service in the Summary tab: its metrics (into the Metrics tab) and its worst traces (shown). */
  openService(service: string): void {
    void this.callTool('coral_query_metrics', { service }, { quiet: true });
    void this.callTool('coral_query_traces', { service, max_traces: 10 });
    this.emit({ type: 'status', patch: { message: `${service}: worst traces here, its metrics on tab 3` } });
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

  /** One agent turn; its events flow to the UI as they come. */
  async ask(question: string): Promise<void> {
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

  cancel(): void {
    this.abort?.abort();
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
      return this.emit({ type: 'notice', text: `Exported to ${paths.join(' and ')}` });
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
    if (cmd.kind === 'load') return void this.load(cmd.scenario);
    void this.callTool(cmd.tool, cmd.args);
  }

  /** Runs one tool as a `:` command; its number in the session, or undefined without a session. */
  private async callTool(tool: string, args: Record<string, unknown>, o: { quiet?: boolean; early?: boolean } = {}): Promise<number | undefined> {
    if (!this.session) return undefined;
    args = this.inWindow(tool, args);
    const id = `cmd-${++this.commandSeq}`;
    const seq = this.startCall(id);
    this.emit({ type: 'agent', event: { type: 'tool_call_started', id, server: this.session.hub.serverOf(tool), tool, args }, seq, quiet: o.quiet });
    const t = performance.now();
    const r = await this.session.hub.call(id, tool, args, { timeoutMs: 60_000, early: o.early });
    if (r.ok) this.shown(tool, args, r.structured);
    this.emit({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok: r.ok, durationMs: Math.round(performance.now() - t), text: r.text, structured: r.structured }, seq, quiet: o.quiet });
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
    this.cancel();
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

  /** The session as Markdown and as JSON lines (one engine event per line). */
  exportSession(dir = join(coralHome(), 'exports')): string[] {
    // Exports hold telemetry and the conversation: private, like the conversations folder.
    privateDir(dir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const md = join(dir, `coral-session-${stamp}.md`);
    const jsonl = join(dir, `coral-session-${stamp}.jsonl`);
    // Read with cat too: the JSON lines escape what a terminal would act on (exportMarkdown does so for the Markdown).
    writePrivateFile(md, exportMarkdown(this.log.map((l) => l.event), { ...this.describeColony(), model: this.modelLabel() }));
    writePrivateFile(jsonl, `${this.log.map((l) => jsonForTerminal(l)).join('\n')}\n`);
    return [md, jsonl];
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
