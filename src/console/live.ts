import type { ToolResult } from '../agent/events.js';
import { chartKey } from './commands.js';

/**
 * Live views of a running colony: the summary, trace list, metrics and charted signals the user last asked for are
 * asked again every few seconds, and a result goes to the UI only when it differs from the last one.
 * The UI updates those views in place (it never switches tabs for a refresh).
 */
export type LiveView = 'summary' | 'traces' | 'metrics' | `chart:${string}`;

export const DEFAULT_LIVE_INTERVAL_MS = 5000;
/**
 * The summary (a dozen queries over two windows) is asked every third round only: its 30-minute
 * window moves slowly, and it is most of a round's cost (about 0.8 s CPU for the three views over
 * the payment-failure hour).
 */
export const SUMMARY_EVERY = 3;

const VIEWS: Record<string, LiveView> = {
  coral_query_summary: 'summary',
  coral_query_traces: 'traces',
  coral_query_ebpf_traces: 'traces',
  coral_query_telemetry_spans: 'traces',
  coral_query_metrics: 'metrics',
  coral_query_ebpf_http_metrics: 'metrics',
  coral_query_ebpf_grpc_metrics: 'metrics',
  coral_query_ebpf_sql_metrics: 'metrics',
};

/** The view a result fills; each charted signal is a view of its own (a chart shows several). */
export const liveViewOf = (tool: string, args: Record<string, unknown> = {}): LiveView | null => (tool === 'coral_query_timeseries' ? `chart:${chartKey(args)}` : (VIEWS[tool] ?? null));

/** The window's bounds move with the clock; the data is what counts as a change. */
const MOVING = new Set(['from', 'to', 'previousFrom']);

/** A result's identity for "did anything change" (pure). */
export function resultKey(structured: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(structured).filter(([k]) => !MOVING.has(k))));
}

export interface LiveRefresh {
  tool: string;
  args: Record<string, unknown>;
  structured: Record<string, unknown>;
}

interface Watched {
  tool: string;
  args: Record<string, unknown>;
  key: string;
  /** When it was last asked (ms). */
  askedAt: number;
  /** A chart's step (ms): its points move only once a step has passed, so it is asked no more often. */
  stepMs: number;
}

/** A charted signal's step, from its result (0: none known). */
const stepMsOf = (structured: Record<string, unknown>) => Number((structured.step as { ms?: unknown } | undefined)?.ms) || 0;

export class LivePoller {
  private readonly views = new Map<LiveView, Watched>();
  /** The charted signals followed: those the last `:chart` asked for, not every time series a model asked. */
  private charts = new Set<LiveView>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<number> | null = null;
  private seq = 0;
  private rounds = 0;
  paused = false;

  private readonly now: () => number;

  constructor(private readonly o: { call(id: string, tool: string, args: Record<string, unknown>): Promise<ToolResult>; onChange(r: LiveRefresh): void; intervalMs: number; /** Tests' clock. */ now?: () => number }) {
    this.now = o.now ?? Date.now;
  }

  /** A result the user was shown: its view now follows that query. A trace id lookup is not a list to follow. */
  note(tool: string, args: Record<string, unknown>, structured: Record<string, unknown> | undefined): void {
    const view = liveViewOf(tool, args);
    if (!view || !structured || args.trace_id !== undefined) return;
    if (view.startsWith('chart:') && !this.charts.has(view)) return;
    this.views.set(view, { tool, args, key: resultKey(structured), askedAt: this.now(), stepMs: stepMsOf(structured) });
  }

  /** The charted signals to follow from now on (a new chart replaces the old one's). */
  followCharts(views: readonly LiveView[]): void {
    for (const view of [...this.views.keys()]) if (view.startsWith('chart:')) this.views.delete(view);
    this.charts = new Set(views);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.paused) void this.tick();
    }, this.o.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One round: every followed view asked again; returns how many changed. One round at a time. */
  tick(): Promise<number> {
    this.polling ??= this.round().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async round(): Promise<number> {
    let changed = 0;
    const summaryToo = this.rounds++ % SUMMARY_EVERY === 0;
    for (const [view, w] of [...this.views]) {
      if (view === 'summary' && !summaryToo) continue;
      if (this.now() - w.askedAt < w.stepMs) continue;
      if (this.paused) break;
      const askedAt = this.now();
      const r = await this.o.call(`live-${++this.seq}`, w.tool, w.args);
      // Paused while the query ran: the view holds still from the moment p was pressed.
      if (this.paused) break;
      // A failed refresh keeps what is shown; the next round tries again.
      if (!r.ok || !r.structured) continue;
      const key = resultKey(r.structured);
      // The user may have asked something else meanwhile: that query is the one followed now.
      if (this.views.get(view) !== w) continue;
      w.askedAt = askedAt;
      if (key === w.key) continue;
      this.views.set(view, { ...w, key });
      changed++;
      this.o.onChange({ tool: w.tool, args: w.args, structured: r.structured });
    }
    return changed;
  }
}
