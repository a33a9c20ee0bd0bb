import { describe, expect, it } from 'vitest';
import type { AskWindow } from '../../src/agent/ask-window.js';
import { ConsoleEngine, type EngineEvent } from '../../src/console/engine.js';
import { tempCoralHome } from '../support/coral-home.js';

const { use } = tempCoralHome('engine-window');

describe('console engine: a window from --since/--from/--to', () => {
  it('states it, and the first look, a service\'s breakdown and the questions all use it', async () => {
    use();
    // The demo hour ends now: 40 to 10 minutes ago is inside it.
    const minute = 60_000;
    const end = new Date(Math.floor(Date.now() / minute) * minute - 10 * minute).toISOString();
    const start = new Date(Date.parse(end) - 30 * minute).toISOString();
    const window: AskWindow = { start, end, label: 'the test window' };
    const engine = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic', window });
    const events: EngineEvent[] = [];
    let turnDone: (() => void) | undefined;
    let breakdownDone: (() => void) | undefined;
    const turn = new Promise<void>((r) => (turnDone = r));
    const breakdown = new Promise<void>((r) => (breakdownDone = r));
    engine.subscribe((e) => {
      events.push(e);
      if (e.type === 'agent' && e.event.type === 'turn_end') turnDone?.();
      if (e.type === 'agent' && e.event.type === 'tool_call_finished' && e.event.tool === 'coral_query_breakdown') breakdownDone?.();
    });
    engine.prepare();
    await engine.start();
    engine.breakdownService('payment');
    await breakdown;
    await engine.ask('what is wrong?');
    await turn;
    await engine.close();
    expect(events).toContainEqual(expect.objectContaining({ type: 'notice', text: 'Window: the test window; every question and the first look use it.' }));
    const started = events.flatMap((e) => (e.type === 'agent' && e.event.type === 'tool_call_started' ? [e.event] : []));
    expect(started.map((c) => c.tool)).toEqual(expect.arrayContaining(['coral_query_summary', 'coral_query_traces', 'coral_query_breakdown', 'coral_query_metrics']));
    for (const c of started) expect(c.args, c.tool).toMatchObject({ start, end });
    const finished = events.flatMap((e) => (e.type === 'agent' && e.event.type === 'tool_call_finished' ? [e.event] : []));
    expect(finished.every((f) => f.ok), finished.map((f) => f.text.slice(0, 200)).join('\n')).toBe(true);
    // One day: "14:05-14:35" (its date when not today); across midnight UTC both days are named.
    expect(finished.find((f) => f.tool === 'coral_query_breakdown')?.text).toMatch(/^Breakdown of payment, ((\d{4}-\d\d-\d\d )?\d\d:\d\d-\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d - \d{4}-\d\d-\d\d \d\d:\d\d) UTC \(30 min\): /);
  }, 180_000);
});
