import { describe, expect, it } from 'vitest';
import { parseRetain, startServeRetention } from '../../src/commands/colony-retain.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { nowNs } from '../../src/core/time.js';
import { batchAt } from '../support/retention-rows.js';

describe('colony serve --retain', () => {
  it('takes a duration of an hour or more, and refuses anything else before the colony starts', () => {
    expect(parseRetain(undefined)).toBeNull();
    expect(parseRetain('7d')).toBe(7n * 24n * 3_600_000_000_000n);
    expect(parseRetain('1h')).toBe(3_600_000_000_000n);
    expect(() => parseRetain('30m')).toThrow(/shorter than an hour/);
    expect(() => parseRetain('a week')).toThrow(/Invalid duration/);
  });

  it('starts a retention loop over the store only when asked, dropping what is older than the retention', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      expect(startServeRetention(store, null)).toBeNull();
      const hour = 3_600_000_000_000n;
      await store.write(batchAt(0, 10, nowNs() - 2n * hour, hour));
      await store.write(batchAt(100, 10, nowNs(), 30n * 60_000_000_000n));
      const r = startServeRetention(store, parseRetain('1h'));
      expect(await r?.pass()).toBeGreaterThan(0);
      const left = await store.counts();
      expect([left.spans, left.logs]).toEqual([10, 10]);
      expect(await r?.pass()).toBe(0);
      await r?.stop();
    } finally {
      await store.close();
    }
  });
});
