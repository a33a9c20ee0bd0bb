import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, ROW_GROUP_ROWS } from '../../../src/colony/store/db.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { batchAt } from '../../support/retention-rows.js';

const T0 = 1_700_000_000_000_000_000n;
const HOUR = 3_600_000_000_000n;

describe('a colony file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-db-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is written in row groups of ROW_GROUP_ROWS, so a checkpoint rewrites at most that many rows of a partly filled one', async () => {
    // A quote in the path: ATTACH takes it as a SQL string.
    const path = join(dir, "o'clock.duckdb");
    const n = 2 * ROW_GROUP_ROWS + 1000;
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      await store.write(batchAt(0, n, T0 + HOUR, HOUR));
      await store.db.admin.run('CHECKPOINT');
      const groups = await store.db.query<{ rows: number }>(
        `SELECT max(count)::INTEGER AS rows FROM pragma_storage_info('otel_traces') GROUP BY row_group_id ORDER BY row_group_id`,
      );
      expect(groups.map((g) => g.rows)).toEqual([ROW_GROUP_ROWS, ROW_GROUP_ROWS, 1000]);
    } finally {
      await store.close();
    }
    const again = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      expect((await again.counts()).spans).toBe(n);
    } finally {
      await again.close();
    }
  });

  it('held open by another process is refused with what to do, not opened twice', async () => {
    const path = join(dir, 'held.duckdb');
    (await Database.open({ path })).close();
    const holder = spawn(process.execPath, ['--input-type=module', '-e', `
      import { DuckDBInstance } from '@duckdb/node-api';
      await DuckDBInstance.create(${JSON.stringify(path)});
      console.log('ready');
      process.stdin.resume();
    `], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: holder.stdout }).on('line', (l) => l === 'ready' && resolve());
        holder.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
      });
      await expect(Database.open({ path })).rejects.toMatchObject({
        message: expect.stringContaining(`Cannot open the colony database ${path}`),
        hint: expect.stringContaining('Another coral process has this colony open'),
      });
    } finally {
      holder.kill();
    }
  });
});
