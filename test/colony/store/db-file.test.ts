import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/colony/store/db.js';

describe('a colony file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-db-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('held open by another process is refused with what to do, not opened twice', async () => {
    const path = join(dir, 'held.duckdb');
    await (await Database.open({ path })).close();
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
