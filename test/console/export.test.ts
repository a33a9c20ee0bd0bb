import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/console/engine.js';
import { citedNumbers } from '../../src/console/citations.js';
import { excerpt, exportMarkdown, exportResults, exportTime } from '../../src/console/export.js';
import { sessionLines, sessionRecord } from '../../src/console/session-record.js';

const NOW = { colony: 'embedded', source: 'demo: healthy', model: 'replay:healthy (recorded)' };
const log = (events: EngineEvent[]) => events.map((event, i) => ({ at: new Date(Date.UTC(2026, 10, 27, 18, 0, i)).toISOString(), event }));
const started = (id: string, seq: number, tool: string, args: Record<string, unknown> = {}, quiet?: boolean): EngineEvent => ({ type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool, args }, seq, quiet });
const finished = (id: string, seq: number, tool: string, text: string, ok = true): EngineEvent => ({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok, durationMs: 7, text }, seq });
// Line 8 is blank: an excerpt does not end on blank lines.
const long = Array.from({ length: 40 }, (_, i) => (i === 7 ? '' : `line ${i + 1} ${'x'.repeat(i === 0 ? 400 : 10)}`)).join('\n');

const events: EngineEvent[] = [
  { type: 'status', patch: { colony: 'embedded', source: 'demo: payment-failure', model: 'replay:payment-failure (recorded)' } },
  // The first look: before any question, left out of the note.
  started('cmd-1', 1, 'coral_query_summary', { time_range: '30m' }),
  started('cmd-2', 2, 'coral_query_traces', { max_traces: 5 }, true),
  { type: 'agent', event: { type: 'user_message', text: 'Why are checkouts failing?' } },
  finished('cmd-1', 1, 'coral_query_summary', 'startup summary'),
  { type: 'agent', event: { type: 'text_delta', text: 'Let me look at the summary.' } },
  started('r-1', 3, 'coral_query_summary'),
  started('r-2', 4, 'coral_query_traces', { service: 'payment' }),
  // Finished out of order: the note keeps the order they started in.
  finished('r-2', 4, 'coral_query_traces', 'Trace: ab\npayment charge ERROR'),
  finished('r-1', 3, 'coral_query_summary', long),
  { type: 'agent', event: { type: 'text_delta', text: 'Root cause: **payment** [3]. ' } },
  { type: 'agent', event: { type: 'message_end', text: `Root cause: **payment** [3]. ${'y'.repeat(3000)}` } },
  { type: 'agent', event: { type: 'turn_end', reason: 'answered', model: 'replay:payment-failure' } },
  started('cmd-3', 5, 'coral_query_metrics', { service: 'payment' }),
  finished('cmd-3', 5, 'coral_query_metrics', 'payment RED'),
  { type: 'status', patch: { colony: 'embedded', source: 'demo: healthy', model: 'replay:healthy (recorded)' } },
  { type: 'agent', event: { type: 'user_message', text: 'Anything wrong?' } },
  started('r-3', 6, 'coral_query_summary'),
  finished('r-3', 6, 'coral_query_summary', 'cancelled', false),
  { type: 'agent', event: { type: 'text_delta', text: 'So far nothing' } },
  { type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'replay:healthy' } },
];

describe('the session record', () => {
  it('holds the questions in order, each turn\'s calls by start order, and leaves out what came before the first question', () => {
    const r = sessionRecord(log(events), NOW, '2026-11-27T18:05:00.000Z');
    expect(r.turns.map((t) => t.question)).toEqual(['Why are checkouts failing?', 'Anything wrong?']);
    const [first, second] = r.turns;
    expect(first.calls.map((c) => c.n)).toEqual([3, 4]);
    expect(first.calls[0]).toMatchObject({ tool: 'coral_query_summary', status: 'ok', durationMs: 7, result: long });
    expect(first.said).toEqual(['Let me look at the summary.']);
    expect(first.answer).toHaveLength('Root cause: **payment** [3]. '.length + 3000);
    expect(first.source).toBe('demo: payment-failure');
    expect(first.commands.map((c) => c.n)).toEqual([5]);
    expect(second).toMatchObject({ source: 'demo: healthy', ended: 'cancelled', answer: 'So far nothing' });
    expect(second.calls[0].status).toBe('cancelled');
    const lines = sessionLines(r) as { type: string }[];
    expect(lines.map((l) => l.type)).toEqual(['session', 'question', 'call', 'call', 'answer', 'command', 'question', 'call', 'answer']);
  });
});

describe('the incident note', () => {
  const r = sessionRecord(log(events), NOW, '2026-11-27T18:05:00.000Z');
  const md = exportMarkdown(r, 'coral-session-x.results.md');

  it('reads as a note: provenance, each question with its whole answer, cited calls with arguments and an excerpt', () => {
    expect(md.startsWith('# Incident note: Why are checkouts failing?\n\n- Colony: embedded (demo: healthy)\n- Model: replay:healthy (recorded)\n- Exported: 2026-11-27 18:05:00 UTC\n- Full tool results: coral-session-x.results.md')).toBe(true);
    expect(md).not.toContain('startup summary');
    expect(md).not.toContain('more characters');
    expect(md).toContain(`Root cause: **payment** [3]. ${'y'.repeat(3000)}`);
    expect(md).toContain('## 1. Why are checkouts failing?\n\nAsked 2026-11-27 18:00:03 UTC · colony: embedded (demo: payment-failure)');
    expect(md).toContain('**[3] coral_query_summary** `{}` · 7 ms · 2026-11-27 18:00:06 UTC');
    // The excerpt: the first lines, the long one cut, then where the rest is.
    expect(md).toContain(`line 1 ${'x'.repeat(192)}…\n`);
    expect(md).toContain('line 7 xxxxxxxxxx\n```\n');
    expect(md).not.toContain('line 9 ');
    expect(md).toContain('… 33 more lines in [the full result](coral-session-x.results.md#call-3)');
    expect(md).toContain('- [4] coral_query_traces `{"service":"payment"}` · 7 ms');
    expect(md).toContain('### Looked at by hand afterwards\n\n- [5] coral_query_metrics `{"service":"payment"}`');
    expect(md).toContain('## 2. Anything wrong?');
    expect(md).toContain('### Answer (cancelled)\n\nSo far nothing');
    // One time format throughout.
    expect(md.match(/\d{4}-\d\d-\d\dT/)).toBeNull();
    expect(md.indexOf('## 1.')).toBeLessThan(md.indexOf('[3] coral_query_summary'));
    expect(md.indexOf('[3] coral_query_summary')).toBeLessThan(md.indexOf('[4] coral_query_traces'));
  });

  it('puts every call\'s full result in the results file, under its number', () => {
    const full = exportResults(r);
    expect(full).toContain('<a id="call-3"></a>\n## [3] coral_query_summary');
    expect(full).toContain(long);
    expect(full).toContain('## [5] coral_query_metrics');
    expect(full).not.toContain('startup summary');
  });

  it('writes telemetry and model text with control characters made visible, and a result cannot close its fence', () => {
    const hostile: EngineEvent[] = [
      { type: 'agent', event: { type: 'user_message', text: 'why?' } },
      started('c1', 1, 'coral_query_traces', { service: 'evil\x1b[2J' }),
      finished('c1', 1, 'coral_query_traces', 'Trace of evil\x1b]52;c;eA==\x07\n```\n# not a heading'),
      { type: 'agent', event: { type: 'message_end', text: 'Root cause: evil\x1b[2J [1].' } },
      { type: 'agent', event: { type: 'turn_end', reason: 'answered', model: 'm' } },
    ];
    const note = exportMarkdown(sessionRecord(log(hostile), NOW, '2026-11-27T18:05:00.000Z'), 'r.md');
    expect(note).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(note).toContain('Root cause: evil\\x1b[2J [1].');
    expect(note).toContain('````\nTrace of evil\\x1b]52;c;eA==\\x07\n```\n# not a heading\n````');
  });

  it('helpers: one time format, excerpts, cited numbers', () => {
    expect(exportTime('2026-11-27T18:03:11.123Z')).toBe('2026-11-27 18:03:11 UTC');
    expect(excerpt('a\nb\n')).toEqual({ lines: ['a', 'b'], more: 0 });
    expect([...citedNumbers('a [1], b [2][4], c [5-7] [x]')]).toEqual([1, 2, 4, 5, 6, 7]);
  });
});
