import { describe, expect, it } from 'vitest';
import { CommandError, complete, parseCommand } from '../../src/console/commands.js';
import { exportMarkdown } from '../../src/console/export.js';
import { renumberCitations } from '../../src/console/citations.js';
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
      { type: 'agent', event: { type: 'tool_call_started', id: '1', server: 'colony', tool: 'coral_query_summary', args: {} }, seq: 1 },
      { type: 'agent', event: { type: 'tool_call_finished', id: '1', tool: 'coral_query_summary', ok: true, durationMs: 12, text: 'payment stands out' }, seq: 1 },
      { type: 'agent', event: { type: 'message_end', text: 'Root cause: payment [1].' } },
    ];
    const md = exportMarkdown(events, { colony: 'embedded', source: 'demo: payment-failure', model: 'replay:payment-failure' });
    expect(md).toContain('## Question\n\nWhy are checkouts failing?');
    expect(md).toContain('### [1] coral_query_summary {} (12 ms)\n\n```\npayment stands out\n```');
    expect(md).toContain('## Answer\n\nRoot cause: payment [1].');
  });

  it('keeps each question\'s colony and model as they were, the words said on the way, and session call numbers', () => {
    const events: EngineEvent[] = [
      { type: 'status', patch: { colony: 'embedded', source: 'demo: payment-failure', model: 'replay:payment-failure (recorded)' } },
      { type: 'agent', event: { type: 'tool_call_started', id: 'cmd-1', server: 'colony', tool: 'coral_query_traces', args: {} }, seq: 1 },
      { type: 'agent', event: { type: 'tool_call_finished', id: 'cmd-1', tool: 'coral_query_traces', ok: true, durationMs: 5, text: 'Trace: ab' }, seq: 1 },
      { type: 'agent', event: { type: 'user_message', text: 'Why are checkouts failing?' } },
      { type: 'agent', event: { type: 'text_delta', text: 'Let me look at the summary.' } },
      { type: 'agent', event: { type: 'tool_call_started', id: 'r-1', server: 'colony', tool: 'coral_query_summary', args: {} }, seq: 2 },
      { type: 'agent', event: { type: 'tool_call_finished', id: 'r-1', tool: 'coral_query_summary', ok: true, durationMs: 9, text: 'payment' }, seq: 2 },
      { type: 'agent', event: { type: 'text_delta', text: 'Root cause: payment [2].' } },
      { type: 'agent', event: { type: 'message_end', text: 'Root cause: payment [2].' } },
      { type: 'status', patch: { colony: 'embedded', source: 'demo: healthy', model: 'replay:healthy (recorded)' } },
      { type: 'agent', event: { type: 'user_message', text: 'Anything wrong?' } },
      { type: 'agent', event: { type: 'tool_call_started', id: 'r-2', server: 'colony', tool: 'coral_query_summary', args: {} }, seq: 3 },
      { type: 'agent', event: { type: 'tool_call_finished', id: 'r-2', tool: 'coral_query_summary', ok: false, durationMs: 3, text: 'cancelled' }, seq: 3 },
      { type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'replay:healthy' } },
    ];
    const md = exportMarkdown(events, { colony: 'embedded', source: 'demo: healthy', model: 'replay:healthy (recorded)' });
    const [first, second] = md.split('## Question').slice(1);
    expect(first).toContain('- asked of: embedded (demo: payment-failure) · model: replay:payment-failure (recorded)');
    expect(first).toContain('### On the way\n\nLet me look at the summary.');
    expect(first).toContain('### [2] coral_query_summary {} (9 ms)');
    expect(first).toContain('## Answer\n\nRoot cause: payment [2].');
    expect(second).toContain('- asked of: embedded (demo: healthy) · model: replay:healthy (recorded)');
    expect(second).toContain('### [3] coral_query_summary {} (cancelled)');
    expect(md.split('## Question')[0]).toContain('### [1] coral_query_traces {} (5 ms)');
  });
});

describe('exportMarkdown and hostile text', () => {
  it('writes telemetry and model text with control characters made visible', () => {
    const events: EngineEvent[] = [
      { type: 'agent', event: { type: 'user_message', text: 'why?' } },
      { type: 'agent', event: { type: 'tool_call_started', id: 'c1', server: 'colony', tool: 'coral_query_traces', args: { service: 'evil\x1b[2J' } }, seq: 1 },
      { type: 'agent', event: { type: 'tool_call_finished', id: 'c1', tool: 'coral_query_traces', ok: true, durationMs: 5, text: 'Trace of evil\x1b]52;c;eA==\x07' }, seq: 1 },
      { type: 'agent', event: { type: 'message_end', text: 'Root cause: evil\x1b[2J [1].' } },
      { type: 'agent', event: { type: 'turn_end', reason: 'answered', model: 'm' } },
    ];
    const md = exportMarkdown(events, { colony: 'embedded', source: 'demo', model: 'm' });
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(md).toContain('Root cause: evil\\x1b[2J [1].');
    expect(md).toContain('evil\\x1b]52;c;eA==\\x07');
  });
});

describe('renumberCitations', () => {
  it('maps the turn\'s [k] to the session numbers of its calls, lists and ranges included', () => {
    expect(renumberCitations('a [1], b [2][3], c [1, 3], d [1-2], e [4]', [7, 8, 9])).toBe('a [7], b [8][9], c [7, 9], d [7-8], e [4]');
    expect(renumberCitations('no citations [x]', [5])).toBe('no citations [x]');
  });
});
