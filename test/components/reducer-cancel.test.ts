import { describe, expect, it } from 'vitest';
import type { SummaryJson } from '../../components/state/types.js';
import { fresh, run } from './key-press.js';

const summary: SummaryJson = { from: '2026-11-27T12:38:00Z', to: '2026-11-27T13:08:00Z', previousFrom: '2026-11-27T12:08:00Z', standOut: [], services: [], events: [], lookFirst: 'Where to look first: payment', intake: null };

describe('Ctrl-C during a tool call', () => {
  it('leaves the summary as it was: the hub\'s "<tool> failed: cancelled" is a cancelled call, not a failure', () => {
    const shown = run(fresh(),
      { type: 'agent', event: { type: 'tool_call_started', id: 's1', server: 'colony', tool: 'coral_query_summary', args: {} } },
      { type: 'agent', event: { type: 'tool_call_finished', id: 's1', tool: 'coral_query_summary', ok: true, durationMs: 1, text: '', structured: summary as unknown as Record<string, unknown> } });
    const s = run(shown,
      { type: 'agent', event: { type: 'user_message', text: 'why?' } },
      { type: 'agent', event: { type: 'tool_call_started', id: 't1', server: 'colony', tool: 'coral_query_summary', args: {} } },
      { type: 'agent', event: { type: 'tool_call_finished', id: 't1', tool: 'coral_query_summary', ok: false, durationMs: 1, text: 'coral_query_summary failed: cancelled' } },
      { type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'm' } });
    expect([s.summary.error, s.summary.data]).toEqual([null, summary]);
    expect(s.toolCalls.map((c) => c.status)).toEqual(['done', 'cancelled']);
    expect([s.status.message, s.status.messageError]).toEqual(['query_summary cancelled', false]);
    expect(s.chat.at(-1)?.text).toMatch(/^Cancelled\./);
  });

  it('a real failure still says so', () => {
    const s = run(fresh(),
      { type: 'agent', event: { type: 'tool_call_started', id: 't1', server: 'colony', tool: 'coral_query_summary', args: {} } },
      { type: 'agent', event: { type: 'tool_call_finished', id: 't1', tool: 'coral_query_summary', ok: false, durationMs: 1, text: 'coral_query_summary failed: timed out after 60000 ms' } });
    expect(s.summary.error).toBe('query_summary failed: coral_query_summary failed: timed out after 60000 ms');
  });
});
