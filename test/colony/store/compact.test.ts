import { afterAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { SEC, T0, ingest, sdkResource, tracesBody } from '../../support/otlp-json.js';

/** A compact in-memory colony (the console's demo) ingests, re-sends and compacts like any other. */
describe('a compact in-memory colony', () => {
  const stores: ColonyStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it('keeps a re-sent batch once, and answers the same after compacting', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB', compact: true });
    stores.push(store);
    const [{ db }] = await store.db.query<{ db: string }>('SELECT current_database() AS db');
    expect(db).toBe('colony');
    const body = tracesBody(sdkResource('checkout'), 's', [
      { traceId: 'ab'.repeat(16), spanId: '11'.repeat(8), name: 'x', startNs: T0 + SEC, durationMs: 1 },
      { traceId: 'ab'.repeat(16), spanId: '12'.repeat(8), name: 'y', startNs: T0 + SEC, durationMs: 2 },
    ]);
    await ingest(store, 'traces', body);
    await Promise.all([ingest(store, 'traces', body), ingest(store, 'traces', body)]);
    expect((await store.counts()).spans).toBe(2);
    const before = await store.getTrace('ab'.repeat(16));
    await store.compact();
    expect(await store.getTrace('ab'.repeat(16))).toEqual(before);
    expect((await store.counts()).spans).toBe(2);
  });
});
