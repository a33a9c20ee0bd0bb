import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type AskSettings, resolveAskSettings } from '../agent/config.js';
import { historyForTurn } from '../agent/conversation.js';
import type { AgentEvent, Message } from '../agent/events.js';
import { runTurn } from '../agent/loop.js';
import { createModel, createProvider } from '../agent/providers/index.js';
import type { ModelProvider } from '../agent/providers/types.js';
import { type AgentSession, type ColonyChoice, openAgentSession, sessionSettings } from '../agent/setup.js';
import { coralHome } from '../core/paths.js';
import { hasConsent } from '../agent/consent.js';
import { CommandError, complete, parseCommand } from './commands.js';
import { exportMarkdown } from './export.js';

/**
 * The console's engine: the agent session, the model, the conversation and the `:` commands.
 * It knows nothing of Ink; the UI subscribes to its events and calls its actions.
 */
export type EngineEvent =
  | { type: 'agent'; event: AgentEvent }
  | { type: 'status'; patch: { colony?: string; source?: string; model?: string; loading?: number | null; message?: string | null } }
  | { type: 'notice'; text: string; error?: boolean }
  | { type: 'clear' }
  | { type: 'help' };

export interface EngineOptions extends ColonyChoice {
  model?: string;
}

export const DEFAULT_SCENARIO = 'payment-failure';
const GENERIC_QUESTION = 'What is wrong right now, and where should I look first?';

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
  /** The question Enter sends on an empty input: the recorded investigation's, or a generic one. */
  defaultQuestion = GENERIC_QUESTION;

  constructor(private opts: EngineOptions) {}

  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: EngineEvent): void {
    this.log.push({ at: new Date().toISOString(), event: e });
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
    this.session = await openAgentSession(choice, {
      mcpServers: settings.mcpServers,
      onProgress: (f) => this.emit({ type: 'status', patch: { loading: f } }),
    });
    for (const w of this.session.hub.warnings) this.emit({ type: 'notice', text: w });
    this.session.ready.then(
      () => this.emit({ type: 'status', patch: { loading: null } }),
      (err: Error) => this.emit({ type: 'notice', text: `loading failed: ${err.message}`, error: true }),
    );
    const { SERVICES } = await import('../demo/world.js');
    this.services = SERVICES.map((s) => s.name);
    this.emit({ type: 'notice', text: `Ask a question below, or press Enter for: "${this.defaultQuestion}". Tab moves between panes, ? lists the keys, : runs a command.` });
    if (choice.demo) {
      const { readMeta } = await import('../demo/files.js');
      const culprit = readMeta(choice.demo).truth.culprits[0];
      // A first look without a model: the slowest traces of the service that matters most here.
      this.runCommand(`:traces ${culprit ?? 'frontend'} --max 5 --since 30m`);
    }
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
      for await (const ev of runTurn({ provider: this.provider, hub: this.session.hub, system: this.session.system, messages: this.messages, question: q, maxToolRounds: settings.maxToolRounds, signal: this.abort.signal })) {
        this.emit({ type: 'agent', event: ev });
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
        this.emit({ type: 'status', patch: { model: this.modelLabel() } });
        return this.emit({ type: 'notice', text: `Model: ${this.modelLabel()}` });
      } catch (err) {
        return this.emit({ type: 'notice', text: (err as Error).message, error: true });
      }
    }
    if (cmd.kind === 'load') return void this.load(cmd.scenario);
    void this.callTool(cmd.tool, cmd.args);
  }

  private async callTool(tool: string, args: Record<string, unknown>): Promise<void> {
    if (!this.session) return;
    const id = `cmd-${++this.commandSeq}`;
    this.emit({ type: 'agent', event: { type: 'tool_call_started', id, server: this.session.hub.serverOf(tool), tool, args } });
    const t = performance.now();
    const r = await this.session.hub.call(id, tool, args, { timeoutMs: 60_000 });
    this.emit({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok: r.ok, durationMs: Math.round(performance.now() - t), text: r.text, structured: r.structured } });
  }

  private async load(scenario: string): Promise<void> {
    if (!this.scenarios.includes(scenario)) {
      this.emit({ type: 'notice', text: `Unknown scenario "${scenario}". Available: ${this.scenarios.join(', ')}`, error: true });
      return;
    }
    this.cancel();
    await this.session?.close();
    this.session = null;
    this.messages = [];
    this.opts = { demo: scenario, model: this.opts.model };
    this.emit({ type: 'clear' });
    // The new scenario brings its own recorded investigation (unless a model is configured).
    this.prepare();
    await this.start();
  }

  /** The session as Markdown and as JSON lines (one engine event per line). */
  exportSession(dir = join(coralHome(), 'exports')): string[] {
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const md = join(dir, `coral-session-${stamp}.md`);
    const jsonl = join(dir, `coral-session-${stamp}.jsonl`);
    writeFileSync(md, exportMarkdown(this.log.map((l) => l.event), { ...this.describeColony(), model: this.modelLabel() }));
    writeFileSync(jsonl, `${this.log.map((l) => JSON.stringify(l)).join('\n')}\n`);
    return [md, jsonl];
  }

  async close(): Promise<void> {
    this.cancel();
    await this.session?.close();
    this.session = null;
  }
}
