import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SpanKeyFilter, spanKeyWords, spanKeyWordsSql } from '../../../src/colony/store/span-keys.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { Database } from '../../../src/colony/store/db.js';
import { createTableSql } from '../../../src/colony/store/columns.js';
import { SPANS } from '../../../src/colony/store/schema.js';
import { hex, numberedSpans as spans, writeSpans as write } from '../../support/numbered-spans.js';

describe('spanKeyWords', () => {
  it('reads a canonical span id in JS exactly as spanKeyWordsSql does in DuckDB; any other id is the zero key', async () => {
    const db = await Database.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      const canonical = ['fedcba9876543210', 'ffffffffffffffff', '0000000000000001', '8000000000000000'];
      const other = ['FEDCBA9876543210', 'fedcba98765432', '1_3456789abcdef0', 'fedcba987654321😀', 'fedcba987654321g', ''];
      await db.admin.run('CREATE TEMP TABLE ids (n INTEGER, span_id VARCHAR)');
      for (const [i, s] of [...canonical, ...other].entries()) await db.admin.run('INSERT INTO ids VALUES ($n, $s)', { n: i, s });
      const rows = ((await db.admin.runAndReadAll(spanKeyWordsSql('(SELECT * FROM ids ORDER BY n)'))).getRows() as number[][]).map((r) => r.map(Number));
      const words = new Uint32Array(2);
      canonical.forEach((s, i) => {
        spanKeyWords(s, words);
        expect([...words], s).toEqual(rows[i]);
      });
      expect(rows[0]).toEqual([0xfedcba98, 0x76543210]);
      for (const s of other) {
        spanKeyWords(s, words);
        expect([...words], s).toEqual([0, 0]);
      }
    } finally {
      await db.close();
    }
  });
});

describe('SpanKeyFilter', () => {
  it('says "certainly new" the first time and "maybe seen" for every key added, also after it grows', () => {
    const filter = new SpanKeyFilter();
    const keys = 200_000; // beyond the first filter's capacity (65,536 keys), so more are added
    let falsePositives = 0;
    for (let i = 0; i < keys; i++) if (filter.admit(hex(i * 7919 + 1, 16))) falsePositives++;
    for (let i = 0; i < keys; i += 13) expect(filter.admit(hex(i * 7919 + 1, 16))).toBe(true);
    expect(falsePositives).toBeLessThan(keys / 10_000);
  });

  it('a span id that is not canonical hex is "maybe seen" from the start: it always takes the exact path', () => {
    const filter = new SpanKeyFilter();
    expect(filter.admit('NOT-HEX-AT-ALL!!')).toBe(true);
    expect(filter.admit('FEDCBA9876543210')).toBe(true);
    expect(filter.admit('fedcba9876543210')).toBe(false);
  });
});

describe('re-sends without a key index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coral-span-keys-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const names = async (store: ColonyStore) =>
    (await store.db.query<{ name: string; n: number }>('SELECT name, count(*)::INTEGER AS n FROM otel_traces GROUP BY name ORDER BY name')).map((r) => [r.name, r.n]);

  it('the new spans table has no key index', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      const [{ n }] = await store.db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM duckdb_constraints() WHERE table_name = 'otel_traces' AND constraint_type = 'PRIMARY KEY'`);
      expect(n).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('a re-send after the colony restarted replaces the stored spans, an hour later too', async () => {
    const path = join(dir, 'restart.duckdb');
    const first = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    const odd = (name: string) => spans([9], name).map((r) => ({ ...r, spanId: 'ABCDEF012345678Z' }));
    await write(first, [...spans([1, 2, 3, 4], 'v1'), ...odd('odd1')]);
    await first.close();
    const again = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      await write(again, spans([3, 4, 5], 'v2'));
      await write(again, spans([1], 'v3', 1_700_003_600_000_000_000n));
      await write(again, odd('odd2'));
      expect(await names(again)).toEqual([['odd2', 1], ['v1', 1], ['v2', 3], ['v3', 1]]);
    } finally {
      await again.close();
    }
  });

  it('a colony opened only to be read never reads its span keys; the first writes read them once, together', async () => {
    const path = join(dir, 'lazy.duckdb');
    const first = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    await write(first, spans([1, 2], 'v1'));
    await first.close();
    const again = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    const stream = vi.spyOn(again.db.admin, 'stream');
    const keyReads = () => stream.mock.calls.filter(([sql]) => sql.includes("TRY_CAST('0x' || span_id")).length;
    try {
      expect((await again.counts()).spans).toBe(2);
      expect(keyReads()).toBe(0);
      // Two writers arriving before the keys are read: one read, and the re-sent span is still replaced.
      await Promise.all([write(again, spans([2, 3], 'v2')), write(again, spans([4], 'v3'))]);
      await write(again, spans([1], 'v4'));
      expect(keyReads()).toBe(1);
      expect(await names(again)).toEqual([['v2', 2], ['v3', 1], ['v4', 1]]);
    } finally {
      await again.close();
    }
  });

  it('a colony file made with the key index keeps it, and re-sends there are upserts too', async () => {
    const path = join(dir, 'indexed.duckdb');
    const old = await Database.open({ path, threads: 1, memoryLimit: '1GB' });
    await old.admin.run(`DROP TABLE ${SPANS.name}`);
    await old.admin.run(createTableSql({ ...SPANS, keyIndex: true }));
    await old.close();
    const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      await write(store, spans([1, 2, 3], 'v1'));
      await write(store, spans([2, 3, 4], 'v2'));
      await Promise.all([write(store, spans([4, 5], 'v3')), write(store, spans([5], 'v4'))]);
      expect(await names(store)).toEqual([['v1', 1], ['v2', 2], ['v3', 1], ['v4', 1]]);
      const [{ n }] = await store.db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM duckdb_constraints() WHERE table_name = 'otel_traces' AND constraint_type = 'PRIMARY KEY'`);
      expect(n).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('a span twice in one batch, and the same batch from several senders at once, are stored once', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      await write(store, [...spans([1, 2], 'a'), ...spans([2], 'b')]);
      expect(await names(store)).toEqual([['a', 1], ['b', 1]]);
      const many = spans(Array.from({ length: 3000 }, (_, i) => 100 + i), 'c');
      await Promise.all([write(store, many), write(store, many), write(store, many.slice(1000)), write(store, spans([100], 'd'))]);
      const [{ n, keys }] = await store.db.query<{ n: number; keys: number }>('SELECT count(*)::INTEGER AS n, count(DISTINCT (trace_id, span_id))::INTEGER AS keys FROM otel_traces');
      expect(n).toBe(keys);
      expect(n).toBe(3002);
    } finally {
      await store.close();
    }
  });

  it('a re-send arriving while the first copy is still being appended on the other lane waits for it, then replaces it', async () => {
    const store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      const big = spans(Array.from({ length: 20_000 }, (_, i) => i), 'first');
      const appending = write(store, big);
      // Let the first group commit start on one lane before the re-send is queued for the other.
      await new Promise((r) => setImmediate(r));
      const resend = write(store, spans([5, 19_999], 'again'));
      await Promise.all([appending, resend]);
      expect(await names(store)).toEqual([['again', 2], ['first', 19_998]]);
    } finally {
      await store.close();
    }
  });
});
