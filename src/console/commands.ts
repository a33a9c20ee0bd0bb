import { parseDuration } from '../core/time.js';

/**
 * The console's `:` commands, parsed into the tool calls they stand for (pure). They call the
 * same tools the agent uses, directly, with no model.
 */
export type ConsoleCommand =
  | { kind: 'tool'; tool: string; args: Record<string, unknown> }
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
  { name: 'columns', usage: ':columns <query> [--dataset d]', description: 'search Honeycomb columns' },
  { name: 'env', usage: ':env', description: 'Honeycomb environment summary' },
  { name: 'load', usage: ':load <scenario>', description: 'load another demo scenario' },
  { name: 'model', usage: ':model <provider:model>', description: 'switch the model' },
  { name: 'export', usage: ':export', description: 'save the session as an incident note, its tool results and JSON lines' },
  { name: 'help', usage: ':help', description: 'keys and commands' },
];

export class CommandError extends Error {}

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

/** Completion for the word being typed: command names first, then scenario or service names. */
export function complete(line: string, words: { scenarios: string[]; services: string[] }): string[] {
  const text = line.replace(/^:/, '');
  const parts = text.split(/\s+/);
  if (parts.length <= 1) return COMMANDS.map((c) => c.name).filter((n) => n.startsWith(parts[0] ?? '')).map((n) => `:${n}`);
  const last = parts[parts.length - 1];
  const pool = parts[0] === 'load' ? words.scenarios : ['traces', 'metrics', 'breakdown'].includes(parts[0]) ? words.services : [];
  const head = `:${parts.slice(0, -1).join(' ')} `;
  return pool.filter((w) => w.startsWith(last)).map((w) => `${head}${w}`);
}
