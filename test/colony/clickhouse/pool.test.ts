import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { Pool } from '../../../src/colony/store/clickhouse/pool.js';
import { openChClient } from '../../../src/colony/store/clickhouse/client.js';

/** A job that waits until released, to hold a connection busy. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe('Pool', () => {
  it('gives each job the connection with the fewest jobs running, and frees it when the job ends or fails', async () => {
    const pool = new Pool(['a', 'b', 'c']);
    const got: string[] = [];
    const jobs = [held(), held(), held(), held()];
    const running = jobs.map((j) => pool.run(async (c) => {
      got.push(c);
      await j.done;
      return c;
    }));
    expect(got).toEqual(['a', 'b', 'c', 'a']);
    jobs[1].release();
    await running[1];
    await pool.run(async (c) => void got.push(c));
    expect(got.at(-1)).toBe('b');
    const failing = pool.run(async (c) => {
      got.push(c);
      throw new Error(`failed on ${c}`);
    });
    await expect(failing).rejects.toThrow('failed on b');
    await pool.run(async (c) => void got.push(c));
    expect(got.at(-1)).toBe('b');
    for (const j of jobs) j.release();
    expect(await Promise.all(running)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('refuses to be empty', () => {
    expect(() => new Pool([])).toThrow('at least one connection');
  });
});

describe.skipIf(!HAVE_CHDB)(`embedded ClickHouse client${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('runs a query while another one is still running', async () => {
    const dir = join(tmpdir(), `coral-ch-pool-${process.pid}`);
    const ch = await openChClient({ kind: 'chdb', dir, database: 'default' });
    try {
      let settled = false;
      const slow = ch.query("SELECT sleep(1) AS s, 'coral-pool-marker' AS m").finally(() => (settled = true));
      let seen = false;
      // One connection would answer only after the slow query ended, never seeing it run.
      while (!settled && !seen) {
        const [r] = await ch.query<{ n: number }>(
          "SELECT toInt32(count()) AS n FROM system.processes WHERE query LIKE '%coral-pool-marker%' AND query NOT LIKE '%system.processes%'",
        );
        seen = r.n === 1;
      }
      await slow;
      expect(seen).toBe(true);
    } finally {
      await ch.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
