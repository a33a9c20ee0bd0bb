import { describe, expect, it } from 'vitest';
import { ColonyStore } from '../../src/colony/store/store.js';
import { readMeta } from '../../src/demo/files.js';
import { FIRST_LOOK_MINUTES, holdAfterExports } from '../../src/demo/first-look.js';
import { loadScenario } from '../../src/demo/load.js';

const END = 1_764_676_800_000_000_000n;
const SCENARIO = 'payment-failure';

describe("a newest-first load held for the console's first look", () => {
  it('holds where the newest minutes are in: after the exports that cover them', () => {
    const meta = readMeta(SCENARIO);
    expect(holdAfterExports(meta, undefined)).toBe(0);
    // 287 exports over the hour: its newest 10 minutes are 47.8 of them, so the hold comes after 48.
    expect(meta).toMatchObject({ durationSec: 3600, counts: { exports: 287 } });
    expect(holdAfterExports(meta, 10)).toBe(48);
    expect(holdAfterExports(meta, 60)).toBe(287);
    expect(holdAfterExports(meta, FIRST_LOOK_MINUTES)).toBeGreaterThan(0);
  });

  it('waits once, at the first write past those minutes, on either thread, and stores every row', async () => {
    const meta = readMeta(SCENARIO);
    const at = holdAfterExports(meta, FIRST_LOOK_MINUTES);
    for (const offThread of [true, false]) {
      const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
      const progress: number[] = [];
      // A thenable records the writes stored when the load waited on it, and lets it go on at once.
      const waitedAfter: number[] = [];
      const hold = { then: (go: () => void) => { waitedAfter.push(progress.at(-1) ?? 0); go(); } } as unknown as Promise<void>;
      try {
        const r = await loadScenario(store, SCENARIO, { endAtNs: END, newestFirst: true, offThread, holdAfterFirst: hold, holdAfterMinutes: FIRST_LOOK_MINUTES, onProgress: (p) => progress.push(p.exportsDone) });
        expect(waitedAfter, `offThread ${offThread}`).toEqual([progress.find((n) => n >= at)]);
        expect(progress.filter((n) => n < at).length, 'writes before the hold').toBeGreaterThan(0);
        expect(r.accepted.spans).toBe(meta.counts.spans);
      } finally {
        await store.close();
      }
    }
  });
});
