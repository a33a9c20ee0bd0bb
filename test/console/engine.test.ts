import { describe, expect, it } from 'vitest';
import { ConsoleEngine, type EngineEvent } from '../../src/console/engine.js';
import { tempCoralHome } from '../support/coral-home.js';

const { use } = tempCoralHome('engine');

describe('console engine', () => {
  it('runs turns with the configured max_tool_rounds, as coral ask does', async () => {
    use('ai:\n  ask:\n    max_tool_rounds: 1\n');
    const engine = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic' });
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    engine.prepare();
    await engine.start();
    await engine.ask('what is wrong?');
    await engine.close();
    const agent = events.flatMap((e) => (e.type === 'agent' ? [e.event] : []));
    expect(agent.find((e) => e.type === 'warning')).toMatchObject({ message: expect.stringMatching(/max_tool_rounds \(1\)/) });
    // The startup pass's calls may still finish after the turn: its end is the turn's last word.
    expect(agent.filter((e) => e.type === 'turn_end').at(-1)).toMatchObject({ type: 'turn_end', reason: 'max_rounds' });
  }, 60_000);

  it('numbers tool calls per session in the order they start, answers cite those numbers, and :load keeps the model chosen with :model', async () => {
    use();
    const engine = new ConsoleEngine({ demo: 'payment-failure' });
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    engine.prepare();
    await engine.start();
    await engine.ask('');
    await engine.ask('is payment failing?');
    const started = events.flatMap((e) => (e.type === 'agent' && e.event.type === 'tool_call_started' ? [e.seq] : []));
    // The startup pass is calls 1 (summary) and 2 (traces); the recorded investigation's calls follow; then the triage's one call.
    expect(started).toEqual(started.map((_, i) => i + 1));
    const answers = events.flatMap((e) => (e.type === 'agent' && e.event.type === 'message_end' ? [e.event.text] : []));
    expect(answers[0]).toMatch(/\[3\]/);
    expect(answers[0]).not.toMatch(/\[[12]\]/);
    expect(answers[1]).toContain(`[${started.length}]`);
    engine.runCommand(':model triage:automatic');
    engine.runCommand(':load healthy');
    await new Promise((r) => setTimeout(r, 50));
    const models = events.flatMap((e) => (e.type === 'status' && e.patch.model ? [e.patch.model] : []));
    expect(models.at(-1)).toBe('no model: automatic triage');
    await engine.close();
  }, 120_000);
});
