import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'coral-crash-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const walBytes = (path: string) => (existsSync(`${path}.wal`) ? statSync(`${path}.wal`).size : 0);

/** Runs the crash writer to its SIGKILL; resolves with the signal that ended it. */
function crashWriter(path: string, spans: number): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../support/crash-writer.ts'), path, String(spans)]);
    child.on('exit', (_code, signal) => resolve(signal));
  });
}

describe('reopening a colony file after a crash', () => {
  it('checkpoints the replayed log at open, so that a second crash has nothing to replay', async () => {
    const path = join(dir, 'colony.duckdb');
    expect(await crashWriter(path, 2000)).toBe('SIGKILL');
    expect(walBytes(path)).toBeGreaterThan(0);

    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      expect((await store.counts()).spans).toBe(2000);
      // Folded into the file while still open: a kill -9 now would leave no log to replay.
      expect(walBytes(path)).toBe(0);
    } finally {
      await store.close();
    }
  }, 60_000);
});
