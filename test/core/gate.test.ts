import { describe, expect, it } from 'vitest';
import { Gate, GateFullError } from '../../src/core/gate.js';

/** A run the test ends when it wants. */
function held() {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  return { end, done };
}

describe('Gate', () => {
  it('runs at most `limit` at once, the rest in order, and a freed place goes to the next waiting run', async () => {
    const gate = new Gate(2);
    const runs = [held(), held(), held(), held()];
    const started: number[] = [];
    const results = runs.map((h, i) => gate.run(async () => {
      started.push(i);
      await h.done;
      return i;
    }));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([gate.active, gate.waiting]).toEqual([2, 2]);
    runs[1].end();
    await results[1];
    // A newcomer arriving now queues behind the waiting ones.
    const late = gate.run(async () => {
      started.push(9);
      return 9;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const h of runs) h.end();
    expect(await Promise.all([...results, late])).toEqual([0, 1, 2, 3, 9]);
    expect(started).toEqual([0, 1, 2, 3, 9]);
    expect([gate.active, gate.waiting]).toEqual([0, 0]);
  });

  it('refuses beyond `maxWaiting` waiting runs, and frees its place when a run throws', async () => {
    const gate = new Gate(1, 1);
    const h = held();
    const first = gate.run(() => h.done);
    const second = gate.run(async () => 'second');
    await expect(gate.run(async () => 'third')).rejects.toThrow(GateFullError);
    h.end();
    await first;
    expect(await second).toBe('second');
    await expect(gate.run(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await gate.run(async () => 'after')).toBe('after');
    expect(gate.active).toBe(0);
  });
});
