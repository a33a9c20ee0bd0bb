import { afterEach, describe, expect, it } from 'vitest';
import { Gate } from '../../../src/core/gate.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { inMemoryClient } from '../../support/mcp.js';
import { MIN, T0 } from '../../support/otlp-json.js';

let store: ColonyStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('tool runs through a shared gate', () => {
  it('queues a call while the gate is full, answers "busy" beyond its queue, and runs the queued call once a place frees', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const gate = new Gate(1, 1);
    const mcp = await inMemoryClient(store, () => T0 + 10n * MIN, { gate });
    let release!: () => void;
    // Another session's run holds the only place.
    const holding = gate.run(() => new Promise<void>((r) => (release = r)));
    const queued = mcp.call('coral_query_summary', {});
    await expect.poll(() => gate.waiting).toBe(1);
    const refused = await mcp.call('coral_query_summary', {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/coral_query_summary: the colony is busy \(1 runs in progress and 1 waiting\); try again in a few seconds/);
    release();
    await holding;
    expect((await queued).isError).toBe(false);
    await mcp.close();
  });
});
