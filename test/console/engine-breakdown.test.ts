import { describe, expect, it } from 'vitest';
import { ConsoleEngine, type EngineEvent } from '../../src/console/engine.js';
import { tempCoralHome } from '../support/coral-home.js';

const { use } = tempCoralHome('engine-breakdown');

describe('console engine: breakdown of a service', () => {
  it('b asks coral_query_breakdown for the service, shown like any call, and says so on the status line', async () => {
    use();
    const engine = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic' });
    const events: EngineEvent[] = [];
    let found: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (found = resolve));
    engine.subscribe((e) => {
      events.push(e);
      if (e.type === 'agent' && e.event.type === 'tool_call_finished' && e.event.tool === 'coral_query_breakdown') found?.();
    });
    engine.prepare();
    await engine.start();
    engine.breakdownService('payment');
    await answered;
    await engine.close();
    const started = events.find((e) => e.type === 'agent' && e.event.type === 'tool_call_started' && e.event.tool === 'coral_query_breakdown');
    expect(started).toMatchObject({ event: { args: { service: 'payment' } } });
    expect(started && 'quiet' in started ? started.quiet : undefined).toBeFalsy();
    const finished = events.flatMap((e) => (e.type === 'agent' && e.event.type === 'tool_call_finished' && e.event.tool === 'coral_query_breakdown' ? [e.event] : []));
    expect(finished[0]).toMatchObject({ ok: true, text: expect.stringMatching(/^Breakdown of payment, last 30m: /) });
    expect(events.some((e) => e.type === 'status' && e.patch.message === 'payment: breakdown of its failing or slow requests')).toBe(true);
  }, 120_000);
});
