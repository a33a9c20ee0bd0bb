import { describe, expect, it } from 'vitest';
import { CommandError, complete, parseCommand } from '../../src/console/commands.js';
import { exportMarkdown } from '../../src/console/export.js';
import type { EngineEvent } from '../../src/console/engine.js';

describe('console commands', () => {
  it('parse into the tool calls they stand for', () => {
    expect(parseCommand(':traces checkout --min 500ms --max 3')).toEqual({ kind: 'tool', tool: 'coral_query_traces', args: { service: 'checkout', min_duration_ms: 500, max_traces: 3 } });
    expect(parseCommand(':metrics api grpc')).toEqual({ kind: 'tool', tool: 'coral_query_metrics', args: { service: 'api', protocol: 'grpc' } });
    expect(parseCommand(':columns http status')).toEqual({ kind: 'tool', tool: 'honeycomb_search_columns', args: { query: 'http status' } });
    expect(parseCommand(':summary 15m')).toEqual({ kind: 'tool', tool: 'coral_query_summary', args: { time_range: '15m' } });
    expect(parseCommand(':env')).toEqual({ kind: 'tool', tool: 'honeycomb_get_environment_summary', args: {} });
    expect(parseCommand(':load healthy')).toEqual({ kind: 'load', scenario: 'healthy' });
    expect(parseCommand(':model google:gemini-2.5-flash')).toEqual({ kind: 'model', model: 'google:gemini-2.5-flash' });
    expect(parseCommand(':export')).toEqual({ kind: 'export' });
  });

  it('explain what is wrong', () => {
    expect(() => parseCommand(':metrics')).toThrow(/usage: :metrics <service>/);
    expect(() => parseCommand(':traces --min soon')).toThrow(CommandError);
    expect(() => parseCommand(':frobnicate')).toThrow(/unknown command :frobnicate; commands: :summary :traces/);
  });

  it('complete command names, scenarios and services', () => {
    expect(complete(':tr', { scenarios: [], services: [] })).toEqual([':traces']);
    expect(complete(':load pay', { scenarios: ['payment-failure', 'healthy'], services: [] })).toEqual([':load payment-failure']);
    expect(complete(':metrics ch', { scenarios: [], services: ['checkout', 'cart'] })).toEqual([':metrics checkout']);
  });
});

describe('export', () => {
  it('writes the conversation and every tool call with its result as Markdown', () => {
    const events: EngineEvent[] = [
      { type: 'agent', event: { type: 'user_message', text: 'Why are checkouts failing?' } },
      { type: 'agent', event: { type: 'tool_call_started', id: '1', server: 'colony', tool: 'coral_query_summary', args: {} } },
      { type: 'agent', event: { type: 'tool_call_finished', id: '1', tool: 'coral_query_summary', ok: true, durationMs: 12, text: 'payment stands out' } },
      { type: 'agent', event: { type: 'message_end', text: 'Root cause: payment [1].' } },
    ];
    const md = exportMarkdown(events, { colony: 'embedded', source: 'demo: payment-failure', model: 'replay:payment-failure' });
    expect(md).toContain('## Question\n\nWhy are checkouts failing?');
    expect(md).toContain('### [1] coral_query_summary {} (12 ms)\n\n```\npayment stands out\n```');
    expect(md).toContain('## Answer\n\nRoot cause: payment [1].');
  });
});
