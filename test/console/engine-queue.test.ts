import { describe, expect, it } from 'vitest';
import { ConsoleEngine, type EngineEvent } from '../../src/console/engine.js';
import { InputQueue } from '../../src/console/input-queue.js';
import { tempCoralHome } from '../support/coral-home.js';

const { use } = tempCoralHome('engine-queue');

const asked = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'agent' && e.event.type === 'user_message' ? [e.event.text] : []));
const queues = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'queue' ? [e.items] : []));
/** Resolves at the first event (from now on) that `pred` accepts. */
const next = (engine: ConsoleEngine, pred: (e: EngineEvent) => boolean) => new Promise<void>((resolve) => {
  const off = engine.subscribe((e) => {
    if (!pred(e)) return;
    off();
    resolve();
  });
});

/** A demo console with the automatic triage, prepared (not started), every event it emits kept. */
function prepared(): { engine: ConsoleEngine; events: EngineEvent[] } {
  use();
  const engine = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic' });
  const events: EngineEvent[] = [];
  engine.subscribe((e) => events.push(e));
  engine.prepare();
  return { engine, events };
}

describe('the input queue', () => {
  it('keeps items in order, labels an empty question as the default one, and clear() settles what it drops', () => {
    const q = new InputQueue();
    const settled: string[] = [];
    q.push({ kind: 'ask', text: '', done: () => settled.push('a') });
    q.push({ kind: 'command', text: ':export', done: () => settled.push('b') });
    q.push({ kind: 'ask', text: ' why? ', done: () => settled.push('c') });
    expect(q.labels('Default?')).toEqual(['Default?', ':export', 'why?']);
    expect(q.shift()?.kind).toBe('ask');
    expect(q.clear().map((i) => i.text)).toEqual([':export', ' why? ']);
    expect([q.size, settled]).toEqual([0, ['b', 'c']]);
  });
});

describe('console engine: nothing typed is lost', () => {
  it('questions sent while the colony opens are shown as queued, then asked in order and answered', async () => {
    const { engine, events } = prepared();
    const started = engine.start();
    // Sent before the session exists (the demo is still loading): queued, never dropped.
    const first = engine.ask('is payment failing?');
    const second = engine.ask('and checkout?');
    expect(queues(events).at(-1)).toEqual(['is payment failing?', 'and checkout?']);
    await started;
    await Promise.all([first, second]);
    expect(asked(events)).toEqual(['is payment failing?', 'and checkout?']);
    expect(queues(events).at(-1)).toEqual([]);
    const answers = events.filter((e) => e.type === 'agent' && e.event.type === 'message_end');
    expect(answers).toHaveLength(2);
    await engine.close();
  }, 120_000);

  it('a question sent during a turn waits for it; Ctrl-C drops what is queued and says so', async () => {
    const { engine, events } = prepared();
    await engine.start();
    const turnStarted = next(engine, (e) => e.type === 'agent' && e.event.type === 'user_message');
    const running = engine.ask('what is wrong?');
    const waiting = engine.ask('and then?');
    await turnStarted;
    expect(asked(events)).toEqual(['what is wrong?']);
    expect(queues(events).at(-1)).toEqual(['and then?']);
    engine.cancel();
    await Promise.all([running, waiting]);
    expect(asked(events)).toEqual(['what is wrong?']);
    expect(queues(events).at(-1)).toEqual([]);
    expect(events.find((e) => e.type === 'notice' && /Dropped the queued input: "and then\?"/.test(e.text))).toBeDefined();
    await engine.close();
  }, 120_000);
});
