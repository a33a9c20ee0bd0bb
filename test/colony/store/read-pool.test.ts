import { afterEach, describe, expect, it } from 'vitest';
import { decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { QueryLimitError } from '../../../src/colony/store/read-pool.js';
import { SEC, T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

let store: ColonyStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A read that keeps one DuckDB thread busy for a while (~0.1-1 s, depending on the machine). */
const SLOW_READ = 'SELECT sum(i * i % 7)::DOUBLE AS s FROM range(20000000) t(i)';

function batch(n: number) {
  const spans = Array.from({ length: 20 }, (_, i) => ({ traceId: hexId(16, n * 100 + i, 5), spanId: hexId(8, n * 100 + i, 5), name: 'GET /x', startNs: T0 + BigInt(i) * SEC, durationMs: 5 }));
  return normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), 'x', spans))))).batch;
}

describe('reads beside ingest', () => {
  it('commits the first write after open while slow reads are queued: its span-key read is not one of them', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    let readsDone = 0;
    const reads = Array.from({ length: 12 }, () => store!.db.query(SLOW_READ).then(() => readsDone++));
    // The first write reads the stored span keys (writer.ts): on its own connection, not a read one.
    await store.write(batch(1));
    const doneAtWrite = readsDone;
    await Promise.all(reads);
    expect(doneAtWrite).toBeLessThanOrEqual(2);
    expect((await store.counts()).spans).toBe(20);
  }, 60_000);

  it('stops a read that runs past its time limit with a clear error, and the connection serves the next read', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB', readLimits: { timeoutMs: 50 } });
    const slow = store.db.query('SELECT sum(i * i % 7)::DOUBLE AS s FROM range(100000000000) t(i)');
    await expect(slow).rejects.toThrow(QueryLimitError);
    await expect(slow).rejects.toThrow(/ran longer than 0.05 s and was stopped/);
    for (let i = 0; i < 3; i++) expect(await store.db.query<{ n: number }>('SELECT 42 AS n')).toEqual([{ n: 42 }]);
  }, 60_000);

  it('refuses an answer with more rows than a read may return, before making them JS objects', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB', readLimits: { maxRows: 1000 } });
    await expect(store.db.query('SELECT i FROM range(1001) t(i)')).rejects.toThrow(/has 1001 rows, more than the 1000/);
    const rows = await store.db.query<{ i: bigint; s: string }>(`SELECT i, 'r' || i AS s FROM range(1000) t(i)`);
    expect(rows).toHaveLength(1000);
    expect(rows[999]).toEqual({ i: 999n, s: 'r999' });
  });

  it('closes while reads run and wait: the running ones are stopped, the waiting ones refused, and no connection is closed under a statement', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const endless = 'SELECT sum(i * i % 7)::DOUBLE AS s FROM range(100000000000) t(i)';
    // Two read connections: two run, two wait.
    const reads = Array.from({ length: 4 }, () => store!.db.query(endless).then(() => 'answered', (e: Error) => e.message));
    await store.close();
    store = undefined;
    const said = await Promise.all(reads);
    expect(said.filter((m) => /INTERRUPT|interrupt/.test(m))).toHaveLength(2);
    expect(said.filter((m) => m === 'The colony is closing: the read was not run.')).toHaveLength(2);
  }, 60_000);
});
