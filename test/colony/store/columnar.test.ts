import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecodePool } from '../../../src/colony/otlp/decode-pool.js';
import { decodeExport } from '../../../src/colony/otlp/ingest.js';
import type { Signal } from '../../../src/colony/otlp/model.js';
import type { Encoding } from '../../../src/colony/otlp/responses.js';
import { type TableDef, createTableSql, storedColumnNames, varchar } from '../../../src/colony/store/columns.js';
import { BufferPool, type ColumnarSegment, MAX_POOLED_BYTES, columnarRowBytes, encodeSegment } from '../../../src/colony/store/columnar.js';
import { RowSource } from '../../../src/colony/store/row-source.js';
import { type IngestBatch, appendBatch, emptyBatch } from '../../../src/colony/store/rows.js';
import { APPENDED_TABLES, SPANS } from '../../../src/colony/store/schema.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';
import { SEC, type Scalar, T0, hexId, histogramBody, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

/** Exports of every signal, with strings of every shape: short and long, ASCII and not, repeated, empty, absent. */
async function exports(): Promise<{ signal: Signal; encoding: Encoding; body: Buffer }[]> {
  const names = ['GET', 'caf\u00e9', '\u00e9t\u00e9-\u00e9t\u00e9-\u00e9t\u00e9', 'emoji \u{1F600} in a long span name', 'x'.repeat(13), ''];
  const crafted = Array.from({ length: 300 }, (_, i) => ({
    traceId: hexId(16, i % 7),
    spanId: hexId(8, i),
    parentSpanId: i % 3 === 0 ? undefined : hexId(8, i + 1000),
    name: names[i % names.length],
    startNs: T0 + BigInt(i) * SEC,
    durationMs: i / 3,
    attributes: (i % 2 === 0 ? { 'http.request.method': 'GET', 'http.route': `/r/${i % 5}`, 'http.response.status_code': 200 + (i % 4) } : { 'db.system': 'postgresql', 'db.query.text': `SELECT ${i} FROM \u00fcbersicht` }) as Record<string, Scalar>,
    status: (i % 3) as 0 | 1 | 2,
    statusMessage: i % 3 === 2 ? 'boom \u2014 failed' : undefined,
  }));
  const logs = Array.from({ length: 120 }, (_, i) => ({
    timeNs: T0 + BigInt(i) * SEC,
    severityNumber: 1 + (i % 24),
    body: i % 4 === 0 ? 'short' : `log line ${i} with \u00fcmlauts`,
    attributes: { n: i },
    traceId: i % 2 === 0 ? hexId(16, i) : undefined,
    spanId: i % 2 === 0 ? hexId(8, i) : undefined,
    eventName: i % 10 === 0 ? 'deploy' : undefined,
  }));
  const points = Array.from({ length: 50 }, (_, i) => ({ attributes: { 'http.route': `/p/${i % 3}` }, startNs: T0, timeNs: T0 + BigInt(i) * SEC, bounds: [0.1, 1], counts: [i, 1, 2] }));
  return [
    { signal: 'traces', encoding: 'protobuf', body: protobufTraces(await sdkSpans(700, 'checkout')) },
    { signal: 'traces', encoding: 'protobuf', body: protobufTraces(await sdkSpans(1, 'single')) },
    { signal: 'traces', encoding: 'json', body: json(tracesBody(sdkResource('caf\u00e9-service'), 'scope', crafted)) },
    { signal: 'traces', encoding: 'protobuf', body: protobufTraces(await sdkSpans(1600, 'cart')) },
    { signal: 'logs', encoding: 'json', body: json(logsBody(sdkResource('checkout'), 'logger', logs)) },
    { signal: 'metrics', encoding: 'json', body: json(histogramBody(sdkResource('checkout'), 'meter', { name: 'http.server.request.duration', unit: 's' }, points)) },
  ];
}

/** The reference: every row through DuckDB's appender, one value at a time, no columnar code involved. */
async function appendRows(conn: DuckDBConnection, batch: IngestBatch): Promise<void> {
  for (const { table, rows } of APPENDED_TABLES) {
    const appender = await conn.createAppender(table.name, 'appended');
    for (const row of rows(batch)) {
      for (const c of table.columns) {
        const v = c.get(row);
        if (v === null) appender.appendNull();
        else if (c.kind === 'varchar') appender.appendVarchar(v as string);
        else if (c.kind === 'bigint') appender.appendBigInt(v as bigint);
        else if (c.kind === 'integer') appender.appendInteger(v as number);
        else if (c.kind === 'double') appender.appendDouble(v as number);
        else appender.appendBoolean(v as boolean);
      }
      appender.endRow();
    }
    appender.flushSync();
    appender.closeSync();
  }
}

async function storeSegments(conn: DuckDBConnection, source: RowSource, segments: readonly ColumnarSegment[]): Promise<void> {
  const parts = APPENDED_TABLES.map(({ table }) => ({ table, segments: segments.filter((s) => s.table === table.name) })).filter((p) => p.segments.length > 0);
  await source.serve(parts, (from) => conn.run(parts.map((p, i) => `INSERT INTO ${p.table.name} (${storedColumnNames(p.table)}) SELECT * FROM ${from[i]}`).join(';\n')));
}

async function tablesOf(conn: DuckDBConnection): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const { table } of APPENDED_TABLES) out[table.name] = (await conn.runAndReadAll(`SELECT ${storedColumnNames(table)} FROM ${table.name} ORDER BY ALL`)).getRowObjectsJS();
  return out;
}

describe('columnar segments', () => {
  let instance: DuckDBInstance;
  const source = new RowSource(APPENDED_TABLES.map((t) => t.table), 1);
  const schemas = ['appended', 'encoded_here', 'decoded_by_worker'];
  const conns: Record<string, DuckDBConnection> = {};

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    for (const name of schemas) {
      const c = await instance.connect();
      await c.run(`CREATE SCHEMA ${name}`);
      await c.run(`USE ${name}`);
      for (const { table } of APPENDED_TABLES) await c.run(createTableSql({ ...table, keyIndex: false }));
      source.register(c);
      conns[name] = c;
    }
  });
  afterAll(() => {
    for (const c of Object.values(conns)) c.closeSync();
    instance.closeSync();
  });

  it('store exactly what the appender stores, encoded on this thread or by a decode worker, several segments to a chunk', async () => {
    const sent = await exports();
    const all = emptyBatch();
    for (const e of sent) appendBatch(all, decodeExport(e.signal, e.encoding, e.body).batch);
    expect(all.spans.length).toBe(2601);
    expect(all.events.length).toBeGreaterThan(0);
    await appendRows(conns.appended, all);

    // Here: one segment per export and table, the spans' split again so a chunk takes parts of several.
    const here: ColumnarSegment[] = [];
    for (const e of sent) {
      const b = decodeExport(e.signal, e.encoding, e.body).batch;
      for (const { table, rows } of APPENDED_TABLES) {
        const r = rows(b);
        for (let at = 0; at < r.length; at += 333) here.push(encodeSegment(table, r.slice(at, at + 333)));
      }
    }
    await storeSegments(conns.encoded_here, source, here);

    const pool = new DecodePool(1);
    let fromWorker: ColumnarSegment[];
    try {
      const decoded = await Promise.all(sent.map((e) => pool.decode(e.signal, e.encoding, Buffer.from(e.body))));
      expect(decoded.map((d) => d.accepted)).toEqual(sent.map((e) => decodeExport(e.signal, e.encoding, e.body).accepted));
      fromWorker = decoded.flatMap((d) => d.batch.segments);
      await storeSegments(conns.decoded_by_worker, source, fromWorker);
    } finally {
      await pool.close();
    }

    const expected = await tablesOf(conns.appended);
    expect(expected.otel_traces).toHaveLength(2601);
    expect(await tablesOf(conns.encoded_here)).toEqual(expected);
    expect(await tablesOf(conns.decoded_by_worker)).toEqual(expected);
    // Stored, a string is copied whole; read straight from the chunks, DuckDB compares a long
    // string's length and 4-byte prefix first: a wrong one hides the row from this filter.
    const spans = [{ table: SPANS as unknown as TableDef<unknown>, segments: fromWorker.filter((s) => s.table === SPANS.name) }];
    let hits: unknown[] = [];
    await source.serve(spans, async ([from]) => {
      hits = (await conns.decoded_by_worker.runAndReadAll(`SELECT count(*)::INT AS n FROM ${from} WHERE name IN ('emoji \u{1F600} in a long span name', '\u00e9t\u00e9-\u00e9t\u00e9-\u00e9t\u00e9', 'xxxxxxxxxxxxx')`)).getRowObjectsJS();
    });
    expect(hits).toEqual([{ n: 150 }]);
  });
});

describe('encodeSegment', () => {
  const T: TableDef<{ s: string | null }> = { name: 't', primaryKey: [], columns: [varchar('s', (r) => r.s)] };

  it('stores each distinct long string once and marks only the rows pointing into the heap, in order', () => {
    const long = 'a-string-longer-than-twelve';
    const seg = encodeSegment(T, [{ s: long }, { s: 'GET' }, { s: null }, { s: long }, { s: 'caf\u00e9' }, { s: 'caf\u00e9' }]);
    const v = seg.columns[0];
    expect(new TextDecoder().decode(new Uint8Array(seg.heap, v.heapFrom, v.heapTo - v.heapFrom))).toBe(long);
    expect([...new Int32Array(seg.data, v.long, v.longCount)]).toEqual([0, 3]);
    const slots = new Uint32Array(seg.data, v.values, 6 * 4);
    expect([...slots.subarray(12, 16)]).toEqual([...slots.subarray(0, 4)]);
    // 'café' is 5 UTF-8 bytes: inlined, its repeat a copy of the same slot.
    expect(slots[16]).toBe(5);
    expect([...slots.subarray(20, 24)]).toEqual([...slots.subarray(16, 20)]);
    expect(new Uint8Array(seg.data, v.validity, 1)[0]).toBe(0b11111011);
  });

  it('keeps no validity bitmap for a column without NULL', () => {
    expect(encodeSegment(T, [{ s: 'a' }, { s: 'b' }]).columns[0].validity).toBe(-1);
  });

  it('refuses a value its column type cannot hold, naming the column', () => {
    const B: TableDef<{ b: bigint }> = { name: 'b', primaryKey: [], columns: [{ name: 'n', sqlType: 'BIGINT', kind: 'bigint', get: (r) => r.b }] };
    expect(() => encodeSegment(B, [{ b: 1n << 63n }])).toThrow(/n: 9223372036854775808 is outside BIGINT/);
  });
});

describe('BufferPool', () => {
  it('hands a buffer given back out again, zeroed as far as the segment needs, for a segment it suits', () => {
    const pool = new BufferPool();
    const used = new ArrayBuffer(64 * 1024);
    new Uint8Array(used).fill(7);
    pool.give([used]);
    const again = pool.take(40 * 1024);
    expect(again).toBe(used);
    expect(new Uint8Array(again, 0, 40 * 1024).every((b) => b === 0)).toBe(true);
    // The rest is not touched: zeroing it would make pages resident that no segment reads.
    expect(new Uint8Array(again, 40 * 1024).every((b) => b === 7)).toBe(true);
    expect([pool.size, pool.bytes]).toEqual([0, 0]);
  });

  it('keeps at most 32 MiB of buffers: a huge export\'s segments are left to the collector', () => {
    expect(MAX_POOLED_BYTES).toBe(32 * 1024 * 1024);
    const pool = new BufferPool();
    const MiB = 1024 * 1024;
    // One segment of a 380k-span export: never kept, whatever else the pool holds.
    pool.give([new ArrayBuffer(256 * MiB)]);
    expect([pool.size, pool.bytes]).toEqual([0, 0]);
    pool.give([new ArrayBuffer(16 * MiB), new ArrayBuffer(8 * MiB), new ArrayBuffer(16 * MiB), new ArrayBuffer(8 * MiB)]);
    expect([pool.size, pool.bytes]).toEqual([3, 32 * MiB]);
    // Taking one out makes room again.
    expect(pool.take(12 * MiB).byteLength).toBe(16 * MiB);
    pool.give([new ArrayBuffer(16 * MiB)]);
    expect([pool.size, pool.bytes]).toEqual([3, 32 * MiB]);
    const small = new BufferPool(64 * 1024);
    small.give([new ArrayBuffer(48 * 1024), new ArrayBuffer(32 * 1024)]);
    expect([small.size, small.bytes]).toEqual([1, 48 * 1024]);
  });

  it('says the bytes a segment uses, however large the pooled buffers holding it are', () => {
    const T: TableDef<{ s: string }> = { name: 't', primaryKey: [], columns: [varchar('s', (r) => r.s)] };
    const rows = Array.from({ length: 3000 }, (_, i) => ({ s: `a string longer than twelve bytes ${i}` }));
    const fresh = encodeSegment(T, rows);
    const pooled = encodeSegment(T, rows, new BufferPool());
    expect(fresh.bytes).toBe(fresh.data.byteLength + fresh.heap.byteLength);
    expect(pooled.bytes).toBe(fresh.bytes);
    // Rounded up to a power of two, so that buffers suit later segments of about the same size.
    expect(pooled.data.byteLength + pooled.heap.byteLength).toBeGreaterThan(pooled.bytes);
    // Values, validity and long-row list per row, plus the strings.
    expect(fresh.data.byteLength).toBeLessThanOrEqual(rows.length * columnarRowBytes(T) + 16);
  });

  it('keeps neither small buffers nor hands out one four times larger than needed', () => {
    const pool = new BufferPool();
    pool.give([new ArrayBuffer(1024)]);
    expect(pool.size).toBe(0);
    const big = new ArrayBuffer(1024 * 1024);
    pool.give([big]);
    expect(pool.take(100 * 1024)).not.toBe(big);
    expect(pool.take(300 * 1024)).toBe(big);
  });

  it('a segment encoded into recycled memory stores the same rows as one in fresh memory', () => {
    const T: TableDef<{ s: string | null }> = { name: 't', primaryKey: [], columns: [varchar('s', (r) => r.s)] };
    const rows = Array.from({ length: 2000 }, (_, i) => ({ s: i % 3 === 0 ? null : i % 3 === 1 ? `caf\u00e9-${i}` : `row-${i}-is-a-longer-string` }));
    const fresh = encodeSegment(T, rows);
    const pool = new BufferPool();
    const dirty = new ArrayBuffer(fresh.data.byteLength);
    new Uint8Array(dirty).fill(0xab);
    pool.give([dirty]);
    const recycled = encodeSegment(T, rows, pool);
    expect(recycled.data).toBe(dirty);
    expect(new Uint8Array(recycled.data, 0, fresh.data.byteLength)).toEqual(new Uint8Array(fresh.data));
    expect(recycled.columns).toEqual(fresh.columns);
  });
});
