import { parseDuration } from '../core/time.js';

/**
 * The console's `:` commands, parsed into the tool calls they stand for (pure). They call the
 * same tools the agent uses, directly, with no model.
 */
export type ConsoleCommand =
  | { kind: 'tool'; tool: string; args: Record<string, unknown> }
  /** One coral_query_timeseries call per signal (`key`: errors, p95, metric:<name>), drawn together in the Chart tab. */
  | { kind: 'chart'; service: string; calls: { key: string; args: Record<string, unknown> }[] }
  | { kind: 'load'; scenario: string }
  | { kind: 'model'; model: string }
  | { kind: 'export' }
  | { kind: 'help' };

export interface CommandSpec {
  name: string;
  usage: string;
  description: string;
}

export const COMMANDS: readonly CommandSpec[] = [
  { name: 'summary', usage: ':summary [30m]', description: 'where to look first' },
  { name: 'traces', usage: ':traces [service] [--min 500ms] [--max 10]', description: 'merged span trees' },
  { name: 'metrics', usage: ':metrics <service> [http|grpc|sql]', description: 'RED metrics, eBPF and OTLP' },
  { name: 'breakdown', usage: ':breakdown <service> [errors|slow|window] [--since 30m]', description: 'what the failing or slow requests have in common' },
  { name: 'chart', usage: ':chart <service> [errors p95 ...|metric:<name>] [--since 1h] [--step 1m]', description: 'line chart of signals over time (default errors and p95), onset marked' },
  { name: 'columns', usage: ':columns <query> [--dataset d]', description: 'search Honeycomb columns' },
  { name: 'env', usage: ':env', description: 'Honeycomb environment summary' },
  { name: 'load', usage: ':load <scenario>', description: 'load another demo scenario' },
  { name: 'model', usage: ':model <provider:model>', description: 'switch the model' },
  { name: 'export', usage: ':export', description: 'save the session as an incident note, its tool results and JSON lines' },
  { name: 'help', usage: ':help', description: 'keys and commands' },
];

export class CommandError extends Error {}

/** The signals `:chart` draws as lines (coral_query_timeseries' signals; a metric as metric:<name>). */
export const CHART_SIGNALS = ['requests', 'errors', 'error_rate', 'p50', 'p95', 'p99'] as const;
export const DEFAULT_CHART_SIGNALS = ['errors', 'p95'] as const;

/** A charted signal's key (`errors`, `metric:process.cpu.utilization`) from its coral_query_timeseries arguments. */
export const chartKey = (args: Record<string, unknown>): string => (args.signal === 'metric' ? `metric:${String(args.metric)}` : String(args.signal ?? 'requests'));

/** A `:chart` signal word as the tool's arguments. */
function chartSignal(word: string): { key: string; args: Record<string, unknown> } {
  if ((CHART_SIGNALS as readonly string[]).includes(word)) return { key: word, args: { signal: word } };
  const metric = /^metric:(.+)$/.exec(word)?.[1];
  if (metric) return { key: word, args: { signal: 'metric', metric } };
  const later = word === 'latency_heatmap' ? ' (the heatmap is not drawn as a line chart)' : '';
  throw new CommandError(`:chart cannot draw "${word}"${later}; signals: ${CHART_SIGNALS.join(', ')}, metric:<name> (e.g. metric:process.cpu.utilization)`);
}

function chartCommand(rest: string[], opts: Record<string, string>): ConsoleCommand {
  const usage = 'usage: :chart <service> [errors p95 ...|metric:<name>] [--since 1h] [--step 1m]';
  if (!rest[0]) throw new CommandError(usage);
  const words = rest.length > 1 ? [...new Set(rest.slice(1))] : [...DEFAULT_CHART_SIGNALS];
  const window = { ...(opts.since ? { time_range: opts.since } : {}), ...(opts.step ? { step: opts.step } : {}) };
  return { kind: 'chart', service: rest[0], calls: words.map(chartSignal).map((c) => ({ key: c.key, args: { service: rest[0], ...c.args, ...window } })) };
}

function flags(words: string[]): { rest: string[]; opts: Record<string, string> } {
  const rest: string[] = [];
  const opts: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    if (words[i].startsWith('--')) {
      opts[words[i].slice(2)] = words[i + 1] ?? '';
      i++;
    } else rest.push(words[i]);
  }
  return { rest, opts };
}

export function parseCommand(line: string): ConsoleCommand {
  const words = line.trim().replace(/^:/, '').split(/\s+/).filter(Boolean);
  const [name, ...args] = words;
  const { rest, opts } = flags(args);
  switch (name) {
    case 'summary':
      return { kind: 'tool', tool: 'coral_query_summary', args: rest[0] ? { time_range: rest[0] } : {} };
    case 'traces': {
      const a: Record<string, unknown> = {};
      if (rest[0]) a.service = rest[0];
      if (opts.min) {
        try {
          a.min_duration_ms = /^\d+(\.\d+)?$/.test(opts.min) ? Number(opts.min) : Number(parseDuration(opts.min)) / 1e6;
        } catch {
          throw new CommandError(`--min "${opts.min}" is not a duration; use 500ms, 2s`);
        }
      }
      if (opts.max) a.max_traces = Number(opts.max);
      if (opts.since) a.time_range = opts.since;
      return { kind: 'tool', tool: 'coral_query_traces', args: a };
    }
    case 'metrics':
      if (!rest[0]) throw new CommandError('usage: :metrics <service> [http|grpc|sql]');
      return { kind: 'tool', tool: 'coral_query_metrics', args: { service: rest[0], ...(rest[1] ? { protocol: rest[1] } : {}), ...(opts.since ? { time_range: opts.since } : {}) } };
    case 'breakdown':
      if (!rest[0]) throw new CommandError('usage: :breakdown <service> [errors|slow|window] [--since 30m]');
      return { kind: 'tool', tool: 'coral_query_breakdown', args: { service: rest[0], ...(rest[1] ? { compare: rest[1] } : {}), ...(opts.since ? { time_range: opts.since } : {}) } };
    case 'chart':
      return chartCommand(rest, opts);
    case 'columns':
      if (!rest[0]) throw new CommandError('usage: :columns <query> [--dataset name]');
      return { kind: 'tool', tool: 'honeycomb_search_columns', args: { query: rest.join(' '), ...(opts.dataset ? { dataset: opts.dataset } : {}) } };
    case 'env':
      return { kind: 'tool', tool: 'honeycomb_get_environment_summary', args: {} };
    case 'load':
      if (!rest[0]) throw new CommandError('usage: :load <scenario>');
      return { kind: 'load', scenario: rest[0] };
    case 'model':
      if (!rest[0]) throw new CommandError('usage: :model <provider:model>');
      return { kind: 'model', model: rest[0] };
    case 'export':
      return { kind: 'export' };
    case 'help':
    case undefined:
      return { kind: 'help' };
    default:
      throw new CommandError(`unknown command :${name}; commands: ${COMMANDS.map((c) => `:${c.name}`).join(' ')}`);
  }
}

/** Completion for the word being typed: command names first, then scenario or service names (and `:chart`'s signals after its service). */
export function complete(line: string, words: { scenarios: string[]; services: string[] }): string[] {
  const text = line.replace(/^:/, '');
  const parts = text.split(/\s+/);
  if (parts.length <= 1) return COMMANDS.map((c) => c.name).filter((n) => n.startsWith(parts[0] ?? '')).map((n) => `:${n}`);
  const last = parts[parts.length - 1];
  const chartSignals = parts[0] === 'chart' && parts.length > 2;
  const pool = parts[0] === 'load' ? words.scenarios : chartSignals ? [...CHART_SIGNALS, 'metric:'] : ['traces', 'metrics', 'breakdown', 'chart'].includes(parts[0]) ? words.services : [];
  const head = `:${parts.slice(0, -1).join(' ')} `;
  return pool.filter((w) => w.startsWith(last)).map((w) => `${head}${w}`);
}
