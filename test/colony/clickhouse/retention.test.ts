import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { dayId } from '../../../src/colony/store/clickhouse/retention.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { startRetention } from '../../../src/colony/store/retention-loop.js';
import { batchAt } from '../../support/retention-rows.js';

const DIR = join(tmpdir(), `coral-ch-retention-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const HOUR = 3_600_000_000_000n;
const DAY = 24n * HOUR;
/** Midnight UTC (2023-11-15), so that each simulated day is one ClickHouse partition. */
const T0 = 1_700_006_400_000_000_000n;

describe('dayId', () => {
  it('is the UTC day of an instant as a Date partition names it', () => {
    expect(dayId(T0)).toBe(20231115);
    expect(dayId(T0 - 1n)).toBe(20231114);
  });
});

describe.skipIf(!HAVE_CHDB)(`retention on both backends${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, { timeout: 240_000 }, () => {
  /** A simulated week, four writes a day, retention of a day after each: the spans held at each day's end. */
  async function week(store: Colony): Promise<{ held: number[]; older: number }> {
    let now = T0;
    const retention = startRetention({ dropBefore: (c) => (store.dropBefore ? store.dropBefore(c) : Promise.resolve(0)) }, { retainNs: DAY, now: () => now, everyMs: 3_600_000 });
    const held: number[] = [];
    try {
      for (let q = 0; q < 28; q++) {
        now = T0 + BigInt(q + 1) * 6n * HOUR;
        await store.write(batchAt(q * 500, 500, now, 6n * HOUR));
        await retention.pass();
        if (q % 4 === 3) held.push((await store.counts()).spans);
      }
    } finally {
      await retention.stop();
    }
    const older = await store.searchTraces({ range: { fromNs: T0 - DAY, toNs: now - DAY - 1n }, maxTraces: 1, order: 'recent' });
    return { held, older: older.matchedTraces };
  }

  it('keeps a colony fed a week to its retention: DuckDB by rows, ClickHouse by whole days', async () => {
    const duck = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'retention' }, create: true });
    try {
      const d = await week(duck);
      const c = await week(ch);
      // DuckDB: the last day exactly (4 writes of 500 spans); ClickHouse: today's partition and yesterday's at most.
      expect(d.held).toEqual(Array(7).fill(2000));
      expect(Math.max(...c.held)).toBeLessThanOrEqual(4000);
      expect(c.held.at(-1)).toBeGreaterThanOrEqual(2000);
      // The week ends at midnight: nothing older than a day on either.
      expect([d.older, c.older]).toEqual([0, 0]);
    } finally {
      await duck.close();
      await ch.close();
    }
  });
});
