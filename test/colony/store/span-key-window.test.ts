import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spanKeyWordsOf } from '../../../src/colony/store/columnar-batch.js';
import { RecentSpanKeys } from '../../../src/colony/store/span-key-window.js';
import { openKeyFloor } from '../../../src/colony/store/span-key-floor.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { SPANS } from '../../../src/colony/store/schema.js';
import { hex, numberedSpans as spans, writeSpans as write } from '../../support/numbered-spans.js';

const MIN = 60_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;

/** Keys of spans numbered `ids`, all starting at `startNs`. */
function keysOf(ids: number[]) {
  return [spanKeyWordsOf(ids.map((i) => ({ spanId: hex(i + 1, 16) })))];
}
const at = (startNs: bigint) => ({ oldestNs: startNs, newestNs: startNs });

describe('RecentSpanKeys', () => {
  it('remembers a key while its generation or the next one is kept, then exact-paths anything older than the forgotten one', () => {
    const keys = new RecentSpanKeys(null, 0, 100);
    expect(keys.admitBatch(keysOf([1]), at(T0))).toBe(false);
    expect(keys.admitBatch(keysOf([1]), at(T0))).toBe(true);
    // Fill the first generation and most of a second: key 1 is still remembered.
    expect(keys.admitBatch(keysOf(Array.from({ length: 150 }, (_, i) => 1000 + i)), at(T0 + MIN))).toBe(false);
    expect(keys.admitBatch(keysOf([1]), at(T0))).toBe(true);
    expect(keys.floorNs).toBeNull();
    // A third generation: the first is forgotten, and spans as old as its newest are no longer "certainly new".
    keys.admitBatch(keysOf(Array.from({ length: 100 }, (_, i) => 5000 + i)), at(T0 + 2n * MIN));
    expect(keys.size).toBeLessThanOrEqual(200);
    expect(keys.floorNs).toBe(T0 + MIN + 1n);
    expect(keys.admitBatch(keysOf([90_000]), at(T0 + MIN))).toBe(true);
    expect(keys.admitBatch(keysOf([90_001]), at(T0 + 3n * MIN))).toBe(false);
  });

  it('never holds more than two generations, however many keys pass', () => {
    const keys = new RecentSpanKeys(null, 0, 1000);
    for (let b = 0; b < 50; b++) keys.admitBatch(keysOf(Array.from({ length: 700 }, (_, i) => b * 700 + i)), at(T0 + BigInt(b) * MIN));
    expect(keys.size).toBeLessThanOrEqual(2000);
  });

  it('flags a key repeated within one batch', () => {
    const span = { spanId: hex(2, 16) };
    expect(new RecentSpanKeys(null).admitBatch([spanKeyWordsOf([span, { spanId: hex(3, 16) }])], at(T0))).toBe(false);
    expect(new RecentSpanKeys(null).admitBatch([spanKeyWordsOf([span, { ...span }])], at(T0))).toBe(true);
  });

  it('with a floor from the open, a batch reaching before it is "maybe seen" even when every key is new', () => {
    const keys = new RecentSpanKeys(T0);
    expect(keys.admitBatch(keysOf([1]), { oldestNs: T0 - 1n, newestNs: T0 + MIN })).toBe(true);
    expect(keys.admitBatch(keysOf([2]), at(T0))).toBe(false);
  });
});

describe('span keys read when a colony file opens for writing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-key-window-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  const NEWEST = T0 + 24n * 60n * MIN;

  /** A colony of `old` spans over the day before and 300 in its last minute, reopened. */
  async function colony(name: string, old: number): Promise<ColonyStore> {
    const path = join(dir, `${name}.duckdb`);
    const first = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    for (let i = 0; i < old; i += 5000) await write(first, spans(range(i, Math.min(5000, old - i)), 'old', T0 + BigInt(i) * MIN / 1000n));
    await write(first, spans(range(1_000_000, 300), 'recent', NEWEST));
    await first.close();
    return ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
  }

  it('reads only the recent spans\' keys, as many for an old colony as for a young one', async () => {
    for (const old of [0, 20_000, 60_000]) {
      const store = await colony(`sized-${old}`, old);
      try {
        await store.writer.loadSpanKeys();
        const held = store.writer.spanKeysHeld();
        expect(held.keys, `${old} old spans`).toBe(300);
        expect(held.floorNs).toBe(NEWEST - 15n * MIN);
      } finally {
        await store.close();
      }
    }
  });

  it('a re-send of a recent span and of one older than the keys read are both stored once', async () => {
    const store = await colony('resend', 10_000);
    const names = async () => (await store.db.query<{ name: string; n: number }>(`SELECT name, count(*)::INTEGER AS n FROM ${SPANS.name} GROUP BY name ORDER BY name`)).map((r) => [r.name, r.n]);
    try {
      await write(store, spans([1_000_010], 'recent again', NEWEST));
      await write(store, spans([7], 'old again', T0 + 7n * MIN / 10n));
      await write(store, spans([2_000_000], 'new', NEWEST + MIN));
      expect(await names()).toEqual([['new', 1], ['old', 9_999], ['old again', 1], ['recent', 299], ['recent again', 1]]);
    } finally {
      await store.close();
    }
  });

  it('narrows the window until it holds at most the keys allowed', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      // 1,000 spans a minute over the 15 minutes before NEWEST.
      for (let m = 0; m < 15; m++) await write(store, spans(range(m * 1000, 1000), 'x', NEWEST - BigInt(14 - m) * MIN));
      const floor = await openKeyFloor(store.db.admin, SPANS.name, 15n * MIN, 4000);
      expect(floor?.keys).toBeLessThanOrEqual(4000);
      expect(floor?.keys).toBeGreaterThan(0);
      expect(floor?.newestNs).toBe(NEWEST);
      expect(await openKeyFloor(store.db.admin, SPANS.name, 15n * MIN, 20_000)).toEqual({ floorNs: NEWEST - 15n * MIN, keys: 15_000, newestNs: NEWEST });
    } finally {
      await store.close();
    }
  });
});
