import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPENDED_TABLES } from '../../src/colony/store/schema.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { metaFile, telemetryFile } from '../../src/demo/export-lines.js';
import { readMeta, scenariosDir } from '../../src/demo/files.js';
import { loadScenario, startDemoLoad } from '../../src/demo/load.js';
import type { LoadResult } from '../../src/demo/load-types.js';

/**
 * A demo is decoded on a worker thread when the store takes columnar batches: the colony must end
 * up with exactly the rows a load on the calling thread stores, and a load that fails must say so.
 */
const END = 1_764_676_800_000_000_000n;
const SCENARIO = 'payment-failure';

async function load(offThread: boolean, dir?: string) {
  const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
  const progress: number[] = [];
  let result: LoadResult | Error;
  try {
    result = await loadScenario(store, SCENARIO, { endAtNs: END, newestFirst: true, offThread, dir, onProgress: (p) => progress.push(p.exportsDone) });
  } catch (err) {
    result = err as Error;
  }
  return { store, progress, result };
}

/** Every stored table's row count and a hash over all its rows' values, order aside. */
async function fingerprint(store: ColonyStore) {
  const out: Record<string, { n: number; h: string }> = {};
  for (const { table } of APPENDED_TABLES) {
    const [r] = await store.db.query<{ n: bigint; h: bigint }>(`SELECT count(*) AS n, sum(hash(t)) AS h FROM ${table.name} t`);
    out[table.name] = { n: Number(r.n), h: String(r.h) };
  }
  return out;
}

let here: Awaited<ReturnType<typeof load>>;
let worker: Awaited<ReturnType<typeof load>>;
const scratch = mkdtempSync(join(tmpdir(), 'coral-load-'));
beforeAll(async () => {
  here = await load(false);
  worker = await load(true);
}, 300_000);
afterAll(async () => {
  await here?.store.close();
  await worker?.store.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a demo decoded on a worker thread', () => {
  it('stores exactly the rows a load on this thread stores, and reports the same counts', async () => {
    expect(worker.result).not.toBeInstanceOf(Error);
    expect(worker.result).toEqual(here.result);
    const fp = await fingerprint(worker.store);
    expect(fp.otel_traces.n).toBe(readMeta(SCENARIO).counts.spans);
    expect(fp).toEqual(await fingerprint(here.store));
  });

  it('reports progress in the same steps, ending with every export', () => {
    expect(worker.progress).toEqual(here.progress);
    expect(worker.progress.at(-1)).toBe(readMeta(SCENARIO).counts.exports);
  });

  it('decodes before the store is there, and stores the same once it is given one', async () => {
    const progress: number[] = [];
    const started = startDemoLoad(SCENARIO, { endAtNs: END, newestFirst: true, onProgress: (p) => progress.push(p.exportsDone) });
    await new Promise((r) => setTimeout(r, 500));
    // Nothing can be stored, or reported, without a store.
    expect(progress).toEqual([]);
    const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
    try {
      expect(await started.into(store)).toEqual(here.result);
      expect(progress).toEqual(here.progress);
      expect(await fingerprint(store)).toEqual(await fingerprint(here.store));
    } finally {
      await store.close();
    }
  });

  it('waits after its first write while held, on either thread, then loads the rest', async () => {
    for (const offThread of [true, false]) {
      // Released by hand once the load waits on it (a thenable sees when): nothing is timed.
      let release: () => void = () => undefined;
      const waiting = new Promise<number[]>((waited) => (release = () => waited([])));
      const progress: number[] = [];
      let go: () => void = () => undefined;
      const hold = { then: (resume: () => void) => {
        go = resume;
        release();
      } } as unknown as Promise<void>;
      const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
      try {
        const loading = loadScenario(store, SCENARIO, { endAtNs: END, newestFirst: true, offThread, holdAfterFirst: hold, onProgress: (p) => progress.push(p.exportsDone) });
        await waiting;
        expect(progress, `offThread ${offThread}`).toEqual([here.progress[0]]);
        go();
        expect(await loading).toEqual(here.result);
        expect(progress).toEqual(here.progress);
      } finally {
        await store.close();
      }
    }
  });

  it('loads on the calling thread when no worker can start, with the same rows', async () => {
    // load-off-thread.ts takes the worker's code from this global when the build has not defined it.
    const g = globalThis as Record<string, unknown>;
    g.__CORAL_LOAD_WORKER__ = 'throw new Error("this worker cannot start")';
    let fallback: Awaited<ReturnType<typeof load>> | undefined;
    try {
      fallback = await load(true);
      expect(fallback.result).toEqual(here.result);
      expect(await fingerprint(fallback.store)).toEqual(await fingerprint(here.store));
    } finally {
      delete g.__CORAL_LOAD_WORKER__;
      await fallback?.store.close();
    }
  });

  it('fails with the reason when the file breaks off, instead of hanging or half-succeeding', async () => {
    // The scenario's metadata with a telemetry file cut in its first (oldest) gzip member: the
    // newest members load, then reading stops with an error.
    const src = scenariosDir();
    copyFileSync(metaFile(src, SCENARIO), metaFile(scratch, SCENARIO));
    const gz = readFileSync(telemetryFile(src, SCENARIO));
    const meta = readMeta(SCENARIO);
    const firstMember = meta.members?.[0] ?? 0;
    expect(firstMember).toBeGreaterThan(100);
    writeFileSync(telemetryFile(scratch, SCENARIO), Buffer.concat([Buffer.from(gz.subarray(0, firstMember / 2)), Buffer.alloc(firstMember - Math.floor(firstMember / 2)), gz.subarray(firstMember)]));
    const broken = await load(true, scratch);
    try {
      expect(broken.result).toBeInstanceOf(Error);
      expect((broken.result as Error).message).toMatch(/unexpected end|incorrect|invalid|header|check/i);
      expect(broken.progress.length).toBeGreaterThan(1);
    } finally {
      await broken.store.close();
    }
  });
});
