import { describe, expect, it } from 'vitest';
import { CommandError, complete, parseCommand } from '../../src/console/commands.js';
import { renumberCitations } from '../../src/console/citations.js';

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

describe('renumberCitations', () => {
  it('maps the turn\'s [k] to the session numbers of its calls, lists and ranges included', () => {
    expect(renumberCitations('a [1], b [2][3], c [1, 3], d [1-2], e [4]', [7, 8, 9])).toBe('a [7], b [8][9], c [7, 9], d [7-8], e [4]');
    expect(renumberCitations('no citations [x]', [5])).toBe('no citations [x]');
  });
});
