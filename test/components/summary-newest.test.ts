import { describe, expect, it } from 'vitest';
import type { ConsoleState, SummaryJson } from '../../components/state/types.js';
import { summaryLines } from '../../components/summary/summary-lines.js';
import { fresh, run } from './key-press.js';

const payment = { service: 'payment', sources: ['otlp'], status: 'unhealthy', ratePerSec: 1, prevRatePerSec: 1, requests: 60, errors: 24, prevRequests: 60, prevErrors: 24, errorRate: 0.4, prevErrorRate: 0.4, p95Ms: 9, prevP95Ms: 9, basis: 'spans', signals: [], score: 0, chronic: true, failing: true, slower: false, onset: null, trigger: null, explainedBy: null };
const summary = (lookFirst: string): Record<string, unknown> => ({ from: '2026-11-27T13:03:00Z', to: '2026-11-27T13:08:00Z', previousFrom: '2026-11-27T12:58:00Z', standOut: [], services: [payment, { ...payment, service: 'cart' }], events: [], lookFirst, intake: null } satisfies SummaryJson);
const text = (s: ConsoleState) => summaryLines(s.summary, 200).map((l) => l.text).join('\n');

describe("the first summary from a demo's newest minutes", () => {
  it('says it is from the newest minutes only, and the whole window replaces it in place', () => {
    const early = run(fresh(),
      { type: 'agent', event: { type: 'tool_call_started', id: 'c1', server: 'colony', tool: 'coral_query_summary', args: { time_range: '5m' } }, seq: 1 },
      { type: 'agent', event: { type: 'tool_call_finished', id: 'c1', tool: 'coral_query_summary', ok: true, durationMs: 1, text: '', structured: summary('') }, seq: 1, newest: 10 });
    expect([early.summary.newest, early.summary.timeRange]).toEqual([10, '5m']);
    expect(text(early)).toContain('From the newest 10 minutes only');
    expect(text(early)).toContain('Nothing changed within the newest 10 minutes');
    expect(text(early)).not.toContain('Nothing stands out');
    const moved = run(early, { type: 'summary_move', delta: 1 });
    const full = run(moved, { type: 'refresh', tool: 'coral_query_summary', args: { time_range: '30m' }, structured: summary('Where to look first: payment') });
    expect([full.summary.newest, full.summary.timeRange, full.summary.cursor]).toEqual([null, '30m', 0]);
    expect(text(full)).toContain('Last 30m');
    expect(text(full)).not.toContain('newest');
    expect(full.toolCalls).toEqual(early.toolCalls);
  });
});
