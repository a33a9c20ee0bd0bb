import { describe, expect, it } from 'vitest';
import { KEY, SMALL, mountPerTest, node, trace } from './fixtures.js';

const start = mountPerTest();

describe('scrolling', () => {
  it('scrolls the chat history with PgUp/PgDn and Home/End, with a position line', async () => {
    const { keys, frame, engine } = start({ cols: 100, rows: 30 });
    for (let i = 1; i <= 60; i++) engine.emit({ type: 'notice', text: `note ${i}` });
    await keys();
    expect(frame()).toContain('note 60');
    expect(frame()).not.toContain('note 1 ');
    expect(frame()).toMatch(/lines \d+-120 of 120/);
    await keys(KEY.pageUp);
    expect(frame()).not.toContain('note 60');
    await keys(KEY.home);
    expect(frame()).toContain('note 1 ');
    expect(frame()).toMatch(/lines 1-\d+ of 120/);
    await keys(KEY.end);
    expect(frame()).toContain('note 60');
  });

  it('scrolls an opened tool call through its whole result', async () => {
    const { keys, frame, engine } = start({ cols: 80, rows: 24 });
    const text = Array.from({ length: 40 }, (_, i) => `result line ${i + 1}`).join('\n');
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: '1', server: 'colony', tool: 'coral_query_summary', args: { time_range: '30m' } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: '1', tool: 'coral_query_summary', ok: true, durationMs: 4, text } });
    await keys();
    await keys(KEY.tab, KEY.enter);
    expect(frame()).toContain('colony/coral_query_summary');
    expect(frame()).toContain('args {"time_range":"30m"}');
    for (let i = 0; i < 12; i++) await keys(KEY.pageDown);
    expect(frame()).toContain('result line 40');
    expect(frame()).toMatch(/lines \d+-\d+ of 42/);
  });

  it('scrolls span details that do not fit', async () => {
    const attrs = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`attr.${i}`, `value ${i}`]));
    const t = trace([node('r', 'frontend', 'GET /', 'otlp', 0, 100, [], { attributes: attrs })], 1);
    const { keys, frame } = start({ cols: 100, rows: 30, traces: [t] });
    await keys(KEY.esc, 'd');
    expect(frame()).toContain('attr.0 = "value 0"');
    expect(frame()).not.toContain('attr.39');
    for (let i = 0; i < 4; i++) await keys(KEY.pageDown);
    expect(frame()).toContain('attr.39 = "value 39"');
  });

  it('scrolls the help overlay on a small terminal', async () => {
    const { keys, frame } = start({ cols: 60, rows: 20, traces: [SMALL] });
    await keys('?');
    expect(frame()).not.toContain(':export');
    expect(frame()).toMatch(/lines 1-\d+ of \d+/);
    await keys('G');
    expect(frame()).toContain('Esc or ? closes this help.');
  });
});
