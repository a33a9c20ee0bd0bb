import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FORCE_AFTER_REFUSALS, checkpointStep } from '../../../src/colony/store/checkpointer.js';
import { logLimitBytes } from '../../../src/colony/store/db.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { batchAt } from '../../support/retention-rows.js';

const T0 = 1_700_000_000_000_000_000n;
const HOUR = 3_600_000_000_000n;
const MB = 1024 * 1024;
const walSize = (path: string) => {
  try {
    return statSync(`${path}.wal`).size;
  } catch {
    return 0;
  }
};

describe('checkpointStep', () => {
  it('waits below the limit, checkpoints past it, and forces after many refusals in a row', () => {
    expect(checkpointStep(MB - 1, MB, 0)).toBe('wait');
    expect(checkpointStep(MB, MB, 0)).toBe('checkpoint');
    expect(checkpointStep(5 * MB, MB, FORCE_AFTER_REFUSALS - 1)).toBe('checkpoint');
    expect(checkpointStep(5 * MB, MB, FORCE_AFTER_REFUSALS)).toBe('force');
    expect(checkpointStep(0, MB, FORCE_AFTER_REFUSALS)).toBe('wait');
  });

  it('reads sizes as DuckDB writes them, and refuses what it cannot read', () => {
    expect(logLimitBytes('32MB')).toBe(32 * MB);
    expect(logLimitBytes('1GiB')).toBe(1024 * MB);
    expect(logLimitBytes('512 KB')).toBe(512 * 1024);
    expect(() => logLimitBytes('lots')).toThrow(/Cannot read the log size lots/);
  });
});

describe('checkpoints beside the ingest commits (colony serve)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-checkpointer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const spans = 20_000;

  it('a commit past the log limit is not checkpointed inside it; the checkpointer folds the log in', async () => {
    const path = join(dir, 'beside.duckdb');
    // The checkpointer's own looks are an hour apart: the test looks itself.
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB', checkpointThreshold: '1MB', checkpointBeside: true, checkpointLookMs: 3_600_000 });
    try {
      await store.write(batchAt(0, spans, T0 + HOUR, HOUR));
      expect(walSize(path)).toBeGreaterThan(MB);
      await store.db.lookAtLog();
      expect(store.db.checkpoints).toBe(1);
      expect(walSize(path)).toBeLessThan(MB);
    } finally {
      await store.close();
    }
    const again = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      expect((await again.counts()).spans).toBe(spans);
    } finally {
      await again.close();
    }
  });

  it('without it, DuckDB checkpoints inside the commit that passed the limit', async () => {
    const path = join(dir, 'inside.duckdb');
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB', checkpointThreshold: '1MB' });
    try {
      await store.write(batchAt(0, spans, T0 + HOUR, HOUR));
      expect(walSize(path)).toBeLessThan(MB);
    } finally {
      await store.close();
    }
  });
});
