import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { RowSource, type SegmentsFor } from '../../../src/colony/store/row-source.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { DEFAULT_MAX_PENDING_ROWS, GROUP_MIN_ROWS, MIN_PARALLEL_GROUP_ROWS, StoreWriter } from '../../../src/colony/store/writer.js';
import { Database } from '../../../src/colony/store/db.js';
import { type ColumnarBatch, encodeBatch } from '../../../src/colony/store/columnar-batch.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';
import { T0, hexId, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';
import { appendBatch, emptyBatch } from '../../../src/colony/store/rows.js';
import { decodeExport } from '../../../src/colony/otlp/ingest.js';
import { PreparedStatements } from '../../../src/colony/store/prepared.js';

async function batchOf(spans: number, service: string): Promise<IngestBatch> {
  return normalizeTraces(decodeTracesProto(protobufTraces(await sdkSpans(spans, service)))).batch;
}

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit', () => {
  afterEach(() => vi.restoreAllMocks());

  it('small batches arriving during a commit wait for it and are committed together, not on the second lane', async () => {
    const served: number[] = [];
    const serve = RowSource.prototype.serve;
    vi.spyOn(RowSource.prototype, 'serve').mockImplementation(function (this: RowSource, parts: readonly SegmentsFor[], use) {
      served.push(parts.reduce((n, p) => n + p.segments.reduce((m, s) => m + s.rows, 0), 0));
      return serve.call(this, parts, use);
    });
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      const big = await batchOf(20_000, 'big');
      const small = await Promise.all([1, 2, 3].map((i) => batchOf(100, `small-${i}`)));
      expect(3 * 100).toBeLessThan(MIN_PARALLEL_GROUP_ROWS);
      const writes = [store.write(big)];
      // Each small batch arrives on its own turn of the event loop while the big commit runs.
      for (const b of small) {
        await tick();
        writes.push(store.write(b));
      }
      await Promise.all(writes);
      expect(served).toEqual([20_000, 300]);
      expect((await store.counts()).spans).toBe(20_300);
    } finally {
      await store.close();
    }
  });

  it('a backlog of MIN_PARALLEL_GROUP_ROWS rows starts on the second lane without waiting', async () => {
    const served: number[] = [];
    const serve = RowSource.prototype.serve;
    let bigDone = false;
    vi.spyOn(RowSource.prototype, 'serve').mockImplementation(function (this: RowSource, parts: readonly SegmentsFor[], use) {
      const rows = parts.reduce((n, p) => n + p.segments.reduce((m, s) => m + s.rows, 0), 0);
      served.push(rows);
      // Whether the big commit was still running when this one started.
      if (rows !== 20_000) served.push(bigDone ? -1 : 1);
      return serve.call(this, parts, use);
    });
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      const big = await batchOf(20_000, 'big');
      const backlog = await batchOf(MIN_PARALLEL_GROUP_ROWS, 'backlog');
      const first = store.write(big).then(() => {
        bigDone = true;
      });
      await tick();
      await Promise.all([first, store.write(backlog)]);
      expect(served).toEqual([20_000, MIN_PARALLEL_GROUP_ROWS, 1]);
    } finally {
      await store.close();
    }
  });
});

describe('a commit and the batches still being decoded', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Rows per commit, in order. */
  function servedRows(): number[] {
    const served: number[] = [];
    const serve = RowSource.prototype.serve;
    vi.spyOn(RowSource.prototype, 'serve').mockImplementation(function (this: RowSource, parts: readonly SegmentsFor[], use) {
      served.push(parts.reduce((n, p) => n + p.segments.reduce((m, s) => m + s.rows, 0), 0));
      return serve.call(this, parts, use);
    });
    return served;
  }

  function later<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }

  /** A writer on its own database, waiting at most `waitMs` for batches on their way. */
  async function writerWaiting(waitMs: number): Promise<{ writer: StoreWriter; close: () => Promise<void> }> {
    const db = await Database.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const writer = new StoreWriter(db, DEFAULT_MAX_PENDING_ROWS, waitMs);
    await writer.loadSpanKeys();
    return { writer, close: async () => {
      await writer.flushed();
      await db.close();
    } };
  }

  it('a commit of fewer than GROUP_MIN_ROWS waits for a batch on its way and takes it along', async () => {
    const served = servedRows();
    const { writer, close } = await writerWaiting(600_000);
    try {
      const coming = later<ColumnarBatch>();
      const writes = [writer.writeColumnar(encodeBatch(await batchOf(100, 'first'))), writer.writeColumnar(coming.promise)];
      await new Promise((r) => setTimeout(r, 20));
      expect(served).toEqual([]);
      coming.resolve(encodeBatch(await batchOf(100, 'second')));
      await Promise.all(writes);
      expect(served).toEqual([200]);
      expect(100 + 100).toBeLessThan(GROUP_MIN_ROWS);
    } finally {
      await close();
    }
  });

  it('waits no longer than its limit for a batch on its way', async () => {
    const served = servedRows();
    const { writer, close } = await writerWaiting(50);
    try {
      const slow = later<ColumnarBatch>();
      const first = writer.writeColumnar(encodeBatch(await batchOf(100, 'first')));
      const second = writer.writeColumnar(slow.promise);
      await first;
      expect(served).toEqual([100]);
      slow.resolve(encodeBatch(await batchOf(100, 'second')));
      await second;
      expect(served).toEqual([100, 100]);
    } finally {
      await close();
    }
  });

  it('does not wait for a batch that failed to decode', async () => {
    const served = servedRows();
    // Waiting for the limit would time the test out.
    const { writer, close } = await writerWaiting(600_000);
    try {
      const failing = later<ColumnarBatch>();
      const first = writer.writeColumnar(encodeBatch(await batchOf(100, 'first')));
      const broken = writer.writeColumnar(failing.promise);
      failing.reject(new Error('cannot decode'));
      await expect(broken).rejects.toThrow('cannot decode');
      await first;
      expect(served).toEqual([100]);
    } finally {
      await close();
    }
  });
});

describe('a batch for several tables', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is stored whole or not at all: a failing insert into one table leaves none of its rows in the others', async () => {
    const batch = emptyBatch();
    const span = { traceId: hexId(16, 1), spanId: hexId(8, 1), name: 'GET /', startNs: T0, durationMs: 5 };
    appendBatch(batch, decodeExport('traces', 'json', Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), 'scope', [span])))).batch);
    appendBatch(batch, decodeExport('logs', 'json', Buffer.from(JSON.stringify(logsBody(sdkResource('checkout'), 'scope', [{ timeNs: T0, body: 'paid' }])))).batch);
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      const run = PreparedStatements.prototype.run;
      vi.spyOn(PreparedStatements.prototype, 'run').mockImplementation(function (this: PreparedStatements, conn, sql) {
        return sql.includes('otel_logs') ? Promise.reject(new Error('the logs table refused')) : run.call(this, conn, sql);
      });
      await expect(store.write(batch)).rejects.toThrow('the logs table refused');
      expect(await store.counts()).toMatchObject({ spans: 0, logs: 0 });
      vi.restoreAllMocks();
      await store.write(batch);
      expect(await store.counts()).toMatchObject({ spans: 1, logs: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('checkpoints', () => {
  it("come past a 256 MB write-ahead log rather than DuckDB's 16 MB, in a file and in memory; a compact colony keeps 16 MB", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coral-checkpoint-'));
    const stores = await Promise.all([
      ColonyStore.open({ path: join(dir, 'colony.duckdb'), threads: 1, memoryLimit: '1GB' }),
      ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' }),
      ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB', compact: true }),
    ]);
    try {
      const settings = await Promise.all(stores.map((s) => s.db.query<{ t: string }>(`SELECT current_setting('checkpoint_threshold') AS t`)));
      expect(settings.map((r) => r[0].t)).toEqual(['244.1 MiB', '244.1 MiB', '16.0 MiB']);
    } finally {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
