import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreBusyError } from '../../../src/colony/store/busy.js';
import { DiskFullError } from '../../../src/colony/store/disk-fault.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { batchAt } from '../../support/retention-rows.js';
import { fillDisk, mountTmpfs } from '../../support/tmpfs.js';

const T0 = 1_700_000_000_000_000_000n;
const MINUTE = 60_000_000_000n;
const N = 2000;
/** Batch k: N spans (and as many logs) of their own ids, a minute apart from the next. */
const batch = (k: number) => batchAt(k * N, N, T0 + BigInt(k) * MINUTE, MINUTE);
const NEVER_MS = 3_600_000;

const disk = mountTmpfs(48);
afterAll(() => {
  if ('unmount' in disk) disk.unmount();
});

/** Open options that hear the colony's notices; `spaceBack` resolves with the ms waited once the disk watch says there is room again (rejects past `withinMs`). */
function notices(): { onNotice: (line: string) => void; spaceBack: (withinMs: number) => Promise<number> } {
  let back!: () => void;
  const said = new Promise<void>((r) => (back = r));
  return {
    onNotice: (line) => {
      if (line.startsWith('disk space back')) back();
    },
    spaceBack: (withinMs) => {
      const start = Date.now();
      let timer!: NodeJS.Timeout;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no "disk space back" within ${withinMs} ms`)), withinMs)));
      return Promise.race([said, late]).then(() => Date.now() - start).finally(() => clearTimeout(timer));
    },
  };
}

/** Every acknowledged batch stored exactly once, in the file as reopened. */
async function expectStoredOnce(path: string, acked: readonly number[]): Promise<void> {
  const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
  try {
    const [r] = await store.db.query<{ spans: number; distinct: number; logs: number }>(
      'SELECT (SELECT count(*) FROM otel_traces)::INTEGER AS spans, (SELECT count(DISTINCT span_id) FROM otel_traces)::INTEGER AS "distinct", (SELECT count(*) FROM otel_logs)::INTEGER AS logs',
    );
    expect(r).toEqual({ spans: acked.length * N, distinct: acked.length * N, logs: acked.length * N });
  } finally {
    await store.close();
  }
}

const skip = 'skip' in disk ? disk.skip : null;

describe.skipIf(skip !== null)(`a colony file whose disk fills${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const root = 'dir' in disk ? disk.dir : '';

  it('refuses exports with a retryable answer while full, answers reads, and takes them again by itself once space frees', async () => {
    const path = join(root, 'commits', 'colony.duckdb');
    mkdirSync(dirname(path));
    // No checkpoint during the test: the log's own writes meet the full disk.
    const heard = notices();
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB', checkpointThreshold: '8MB', checkpointBeside: true, checkpointLookMs: NEVER_MS, onNotice: heard.onNotice });
    const acked: number[] = [];
    try {
      await store.write(batch(0));
      acked.push(0);
      const filler = fillDisk(root, 1024 * 1024);
      let k = 1;
      let refused: unknown = null;
      for (; k < 100 && refused === null; k++) {
        await store.write(batch(k)).then(() => acked.push(k), (err: unknown) => (refused = err));
      }
      k--;
      expect(refused).toBeInstanceOf(DiskFullError);
      expect(store.db.diskFull?.dir).toBe(dirname(path));
      // The next export is refused at once, as retryable (the receiver's 503 / RESOURCE_EXHAUSTED).
      await expect(store.write(batch(k + 1))).rejects.toBeInstanceOf(StoreBusyError);
      expect((await store.counts()).spans).toBe(acked.length * N);
      expect(store.notes.join('\n')).toMatch(new RegExp(`disk full at ${dirname(path)} \\([\\d,]+ bytes free\\); exports are refused with 503 until space frees`));

      rmSync(filler);
      expect(await heard.spaceBack(10_000)).toBeLessThan(10_000);
      await store.write(batch(k));
      acked.push(k);
      expect(store.notes).toEqual([]);
      // Exporters re-send what they were not sure of: still stored once.
      for (const a of acked) await store.write(batch(a));
    } finally {
      rmSync(join(root, 'filler'), { force: true });
      await store.close();
    }
    await expectStoredOnce(path, acked);
  });

  it('opens the file again when a checkpoint meets the full disk and DuckDB invalidates it, losing nothing acknowledged', async () => {
    const path = join(root, 'checkpoint', 'colony.duckdb');
    mkdirSync(dirname(path));
    const heard = notices();
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB', checkpointThreshold: '1MB', checkpointBeside: true, checkpointLookMs: NEVER_MS, onNotice: heard.onNotice });
    const acked: number[] = [];
    try {
      for (let k = 0; k < 4; k++) {
        await store.write(batch(k));
        acked.push(k);
      }
      const filler = fillDisk(root, 0);
      // The checkpoint fails FATAL on the full disk: DuckDB invalidates the instance.
      await store.db.lookAtLog();
      expect(store.db.checkpoints).toBe(0);
      expect((await store.counts()).spans).toBe(acked.length * N);
      expect(store.db.generation).toBe(1);
      expect((await store.searchTraces({ range: { fromNs: T0 - 10n * MINUTE, toNs: T0 + 10n * MINUTE }, maxTraces: 5 })).traces.length).toBeGreaterThan(0);
      await expect(store.write(batch(4))).rejects.toBeInstanceOf(DiskFullError);
      expect(store.notes.join('\n')).toMatch(/disk full at/);

      rmSync(filler);
      expect(await heard.spaceBack(10_000)).toBeLessThan(10_000);
      await store.write(batch(4));
      acked.push(4);
      await store.write(batch(5));
      acked.push(5);
      await store.db.lookAtLog();
      expect(store.db.checkpoints).toBe(1);
    } finally {
      rmSync(join(root, 'filler'), { force: true });
      await store.close();
    }
    await expectStoredOnce(path, acked);
  });
});
