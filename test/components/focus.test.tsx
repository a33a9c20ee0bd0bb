import { describe, expect, it } from 'vitest';
import { KEY, SMALL, mountPerTest } from './fixtures.js';

const start = mountPerTest();

describe('focus rules', () => {
  it('opens the help with ? and the command line with : on an empty input, and types them otherwise', async () => {
    const { keys, frame, engine } = start({ traces: [SMALL] });
    await keys('?');
    expect(frame()).toContain('Everywhere');
    await keys(KEY.esc, KEY.tab, KEY.tab, KEY.tab);
    await keys(':');
    expect(frame()).toContain('Tab completes');
    await keys(KEY.esc);
    await keys('w', 'h', 'y', '?');
    expect(frame()).toContain('› why?');
    expect(frame()).not.toContain('Everywhere');
    await keys(KEY.enter);
    expect(engine.asked).toEqual(['why?']);
  });

  it('runs :summary from the command line, not as a question', async () => {
    const { keys, engine } = start();
    await keys(':', 's', 'u', 'm', 'm', 'a', 'r', 'y', KEY.enter);
    expect(engine.commands).toEqual([':summary']);
    expect(engine.asked).toEqual([]);
  });

  it('leaves the input with Esc for the last pane, and comes back with Esc', async () => {
    const { keys, frame } = start({ traces: [SMALL] });
    await keys(KEY.esc, 'j', 'd');
    // The keys went to the trace view: the second row's details are open.
    expect(frame()).toContain('span a parent');
    expect(frame()).not.toContain('› jd');
    await keys(KEY.esc, KEY.esc, 'x');
    expect(frame()).toContain('› x');
  });

  it('keeps the draft through overlays and focus changes', async () => {
    const { keys, frame } = start({ traces: [SMALL] });
    await keys('d', 'r', 'a', 'f', 't');
    await keys(KEY.tab, '?');
    expect(frame()).toContain('Everywhere');
    await keys(KEY.esc, KEY.tab, KEY.tab);
    expect(frame()).toContain('› draft');
  });

  it('asks for a second Ctrl-C before quitting when idle, and cancels a running turn', async () => {
    const { keys, frame, engine } = start();
    await keys(KEY.ctrlC);
    expect(frame()).toContain('Press Ctrl-C again to quit');
    expect(engine.closed).toBe(0);
    await keys('x');
    expect(frame()).not.toContain('Press Ctrl-C again');
    await keys(KEY.ctrlC, KEY.ctrlC);
    expect(engine.closed).toBe(1);
  });

  it('cancels the running turn with Ctrl-C and shows its calls as cancelled', async () => {
    const { keys, frame, engine } = start();
    engine.emit({ type: 'agent', event: { type: 'user_message', text: 'q' } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: '1', server: 'colony', tool: 'coral_query_metrics', args: { service: 'payment' } } });
    await keys();
    await keys(KEY.ctrlC);
    expect(engine.cancelled).toBe(1);
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: '1', tool: 'coral_query_metrics', ok: false, durationMs: 3, text: 'cancelled' } });
    engine.emit({ type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'm' } });
    await keys();
    expect(frame()).toMatch(/⊘ query_metrics .*cancelled/);
    expect(frame()).not.toContain('✗ query_metrics');
    expect(frame()).toContain('Cancelled. Ask again');
  });

  it('acts on each key of a chunk read at once (a busy console reads late)', async () => {
    const { keys, frame, app } = start({ traces: [SMALL] });
    await keys();
    app.stdin.write('\t\t?');
    await keys();
    expect(frame()).toContain('Everywhere');
    expect(frame()).not.toContain('› ?');
    await keys(KEY.esc);
    app.stdin.write('jjd');
    await keys();
    expect(frame()).toContain('span a1 parent');
  });
});
