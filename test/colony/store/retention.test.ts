import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { deleteOlderThan } from '../../../src/colony/store/retention.js';
import { startRetention } from '../../../src/colony/store/retention-loop.js';
import { emptyBatch } from '../../../src/colony/store/rows.js';
import { batchAt } from '../../support/retention-rows.js';

const HOUR = 3_600_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;
const STEP = 12n * HOUR;
const RETAIN = 18n * HOUR;
const PER_STEP = 12_000;

describe('retention (DuckDB)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-retention-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a colony fed a simulated week keeps only its retention: rows and file size stay bounded', async () => {
    const path = join(dir, 'week.duckdb');
    // Checkpointed as `colony serve` is (beside the commits, no vacuum), past a smaller log than serve's (SERVE_CHECKPOINT_THRESHOLD_MB, db.ts).
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB', checkpointThreshold: '4MB', checkpointBeside: true });
    let now = T0;
    const retention = startRetention(store, { retainNs: RETAIN, now: () => now, everyMs: 3_600_000 });
    const sizes: number[] = [];
    const spans: number[] = [];
    try {
      for (let step = 0; step < 14; step++) {
        now = T0 + BigInt(step + 1) * STEP;
        // Enough rows that whole row groups (122,880 rows) age out: DuckDB frees space a row group at a time.
        await store.write(Object.assign(emptyBatch(), { spans: batchAt(step * PER_STEP, PER_STEP, now, STEP).spans }));
        await retention.pass();
        spans.push((await store.counts()).spans);
        if (step % 2 === 1) {
          await store.compact();
          sizes.push(statSync(path).size);
        }
      }
      const [{ oldest }] = await store.db.query<{ oldest: bigint }>('SELECT min(start_ns) AS oldest FROM otel_traces');
      expect(oldest).toBeGreaterThanOrEqual(now - RETAIN);
    } finally {
      await retention.stop();
      await store.close();
    }
    // The last 18 hours of 12-hour steps: at most two steps' rows, every day of the week.
    expect(Math.max(...spans)).toBeLessThanOrEqual(2 * PER_STEP);
    // Day 3 against the rest of the week: emptied row groups' blocks are reused, not added to
    // (without retention the file grew 1.7x from day 3 to day 7; with it, it moved by +-10%).
    expect(sizes.length).toBe(7);
    expect(Math.max(...sizes.slice(2))).toBeLessThanOrEqual(sizes[2] * 1.4);
  }, 480_000);

  it('stopping ends a pass in progress after its current step, not after the whole backlog', async () => {
    let steps = 0;
    let stepped!: () => void;
    const first = new Promise<void>((r) => (stepped = r));
    // A backlog that never ends: each step drops a row and there is always another.
    const endless = { dropBefore: async () => (steps++, stepped(), 1) };
    const retention = startRetention(endless, { retainNs: RETAIN, everyMs: 3_600_000 });
    const pass = retention.pass();
    await first;
    await retention.stop();
    const dropped = await pass;
    expect(dropped).toBe(steps);
    expect(steps).toBeLessThanOrEqual(2);
  });

  it('one step deletes at most its rows per table, oldest first, and leaves younger rows alone', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      await store.write(batchAt(0, 1000, T0 + HOUR, HOUR));
      await store.write(batchAt(1000, 1000, T0 + 2n * HOUR, HOUR));
      expect(await deleteOlderThan(store.db, T0 + HOUR, 300)).toBe(600);
      expect((await store.counts()).spans).toBe(1700);
      while ((await deleteOlderThan(store.db, T0 + HOUR, 300)) > 0);
      const c = await store.counts();
      expect([c.spans, c.logs]).toEqual([1000, 1000]);
      const [{ oldest }] = await store.db.query<{ oldest: bigint }>('SELECT min(start_ns) AS oldest FROM otel_traces');
      expect(oldest).toBe(T0 + HOUR);
    } finally {
      await store.close();
    }
  });
});
