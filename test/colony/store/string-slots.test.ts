import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SLOT_INLINE, SLOT_NATIVE, SLOT_NULL, STRING_SLOT_BYTES, planStrings, writeInlineString } from '../../../src/colony/store/string-slots.js';
import { type TableDef, bigint, boolean, createTableSql, double, integer, json, storedColumnNames, varchar } from '../../../src/colony/store/columns.js';
import { encodeSegment } from '../../../src/colony/store/columnar.js';
import { RowSource, type SegmentsFor } from '../../../src/colony/store/row-source.js';
import { PreparedStatements } from '../../../src/colony/store/prepared.js';

describe('writeInlineString', () => {
  it('inlines ASCII up to 12 bytes as length then zero-padded bytes', () => {
    const slots = new Uint8Array(32).fill(0xee);
    expect(writeInlineString(slots, 16, 'SERVER')).toBe(true);
    expect([...slots.subarray(16, 32)]).toEqual([6, 0, 0, 0, 83, 69, 82, 86, 69, 82, 0, 0, 0, 0, 0, 0]);
    expect([...slots.subarray(0, 16)]).toEqual(new Array(16).fill(0xee));
    expect(writeInlineString(slots, 0, '')).toBe(true);
    expect([...slots.subarray(0, 16)]).toEqual(new Array(16).fill(0));
    expect(writeInlineString(slots, 0, 'abcdefghijkl')).toBe(true);
  });

  it('leaves longer or non-ASCII strings to DuckDB, writing nothing', () => {
    const slots = new Uint8Array(16).fill(7);
    expect(writeInlineString(slots, 0, 'abcdefghijklm')).toBe(false);
    expect(writeInlineString(slots, 0, 'caf\u00e9')).toBe(false);
    expect([...slots]).toEqual(new Array(16).fill(7));
  });
});

describe('planStrings', () => {
  it('assigns each distinct long string once and points repeats at its first row', () => {
    const long = 'a-string-longer-than-twelve';
    const values = [null, 'GET', long, long, 'other-long-string-here', long, null];
    const source = new Int32Array(values.length);
    const inline = new Uint8Array(values.length * STRING_SLOT_BYTES);
    const assigned: [number, string][] = [];
    planStrings((i) => values[i], values.length, source, inline, (i, s) => assigned.push([i, s]));
    expect(assigned).toEqual([[2, long], [4, 'other-long-string-here']]);
    expect([...source]).toEqual([SLOT_NULL, SLOT_INLINE, SLOT_NATIVE, 2, SLOT_NATIVE, 2, SLOT_NULL]);
  });

  it('points a short string repeated on the next row at the first one, without writing it again', () => {
    const values = ['GET', 'GET', null, 'GET', 'POST', 'GET'];
    const source = new Int32Array(values.length);
    const inline = new Uint8Array(values.length * STRING_SLOT_BYTES);
    planStrings((i) => values[i], values.length, source, inline, () => undefined);
    expect([...source]).toEqual([SLOT_INLINE, 0, SLOT_NULL, 0, SLOT_INLINE, SLOT_INLINE]);
    expect([...inline.subarray(STRING_SLOT_BYTES, 2 * STRING_SLOT_BYTES)]).toEqual(new Array(16).fill(0));
  });

  it('leaves every slot to native assignment or NULL when no value is short or repeated', () => {
    const values = ['first-distinct-value', null, 'second-distinct-value'];
    const source = new Int32Array(3);
    planStrings((i) => values[i], 3, source, new Uint8Array(48), () => undefined);
    expect([...source]).toEqual([SLOT_NATIVE, SLOT_NULL, SLOT_NATIVE]);
  });
});

interface Row {
  s: string | null;
  j: string | null;
  b: bigint | null;
  i: number | null;
  d: number | null;
  f: boolean | null;
}

const TABLE: TableDef<Row> = {
  name: 'kinds',
  primaryKey: ['k'],
  columns: [
    bigint('k', (r) => r.b),
    varchar('s', (r) => r.s),
    json('j', (r) => r.j),
    integer('i', (r) => r.i),
    double('d', (r) => r.d),
    boolean('f', (r) => r.f),
  ],
};

/** Rows of one table as one columnar segment, as the store writer gets them. */
function rowsFor<R>(table: TableDef<R>, rows: readonly R[]): SegmentsFor {
  return { table: table as unknown as TableDef<unknown>, segments: [encodeSegment(table, rows)] };
}

describe('rows through the row source', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  const source = new RowSource([TABLE as unknown as TableDef<unknown>], 2);

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '2' });
    conn = await instance.connect();
    source.register(conn);
    await conn.run(createTableSql(TABLE));
  });
  afterAll(() => {
    conn.closeSync();
    instance.closeSync();
  });

  async function roundTrip(rows: Row[]): Promise<Record<string, unknown>[]> {
    await conn.run(`DELETE FROM ${TABLE.name}`);
    await source.serve([rowsFor(TABLE, rows)], ([from]) => conn.run(`INSERT INTO ${TABLE.name} (${storedColumnNames(TABLE)}) SELECT * FROM ${from}`));
    return (await conn.runAndReadAll(`SELECT k AS b, s, j, i, d, f FROM ${TABLE.name} ORDER BY k`)).getRowObjectsJS();
  }

  it('stores every kind of value and NULL exactly, across several chunks', async () => {
    // 5000 rows: three chunks of at most 2048, NULLs only in the later ones (a reused mask must not leak).
    const strings = ['', 'GET', 'abcdefghijkl', 'abcdefghijklm', 'caf\u00e9', 'nul\u0000inside-a-long-string', 'x'.repeat(300), 'lone \ud800 surrogate'];
    const rows: Row[] = Array.from({ length: 5000 }, (_, n) => {
      const nulls = n >= 2048 && n % 3 === 0;
      return {
        b: 1_764_671_400_000_000_000n + BigInt(n),
        s: nulls ? null : strings[n % strings.length],
        j: nulls ? null : n % 2 === 0 ? '{"service.name":"checkout"}' : `{"n":${n}}`,
        i: nulls ? null : n % 2 === 0 ? -(2 ** 31) : 2 ** 31 - 1,
        d: nulls ? null : n / 7,
        f: nulls ? null : n % 2 === 0,
      };
    });
    const got = await roundTrip(rows);
    expect(got).toHaveLength(rows.length);
    const expected = rows.map((r) => ({ ...r, s: r.s?.replace('\ud800', '\ufffd') ?? null }));
    for (let n = 0; n < rows.length; n++) expect(got[n], `row ${n}`).toEqual(expected[n]);
  });

  it('stores many distinct long strings, ASCII and not, mixed in one column, readable and comparable by value', async () => {
    const rows: Row[] = Array.from({ length: 4500 }, (_, n) => ({
      b: BigInt(n),
      s: n % 5 === 0 ? `\u00e9t\u00e9-${n}-non-ascii-value` : n % 7 === 0 ? null : `long-ascii-value-number-${n}`,
      j: `{"attribute.key":"value ${n}","other":${n % 3}}`,
      i: n,
      d: n,
      f: true,
    }));
    const got = await roundTrip(rows);
    for (let n = 0; n < rows.length; n++) expect(got[n], `row ${n}`).toEqual(rows[n]);
    // DuckDB compares the 4-byte prefix first: a wrong one would hide the row from these filters.
    const hits = await conn.runAndReadAll(`SELECT k::INT AS k FROM ${TABLE.name} WHERE s = 'long-ascii-value-number-4499' OR s = '\u00e9t\u00e9-4495-non-ascii-value' OR j = '{"attribute.key":"value 2048","other":2}' ORDER BY k`);
    expect(hits.getRowObjectsJS()).toEqual([{ k: 2048 }, { k: 4495 }, { k: 4499 }]);
    const prefixed = await conn.runAndReadAll(`SELECT count(*)::INT AS n FROM ${TABLE.name} WHERE starts_with(s, 'long') AND s > 'long-ascii-value-number-4'`);
    expect(prefixed.getRowObjectsJS()).toEqual([{ n: rows.filter((r) => r.s?.startsWith('long') && r.s > 'long-ascii-value-number-4').length }]);
  });

  it('refuses a key seen twice, as the appender did (the writer then upserts)', async () => {
    const row: Row = { b: 1n, s: 'a', j: '{}', i: 1, d: 1, f: true };
    await expect(roundTrip([row, row])).rejects.toThrow(/constraint|duplicate/i);
  });

  it('refuses a value its column cannot hold instead of wrapping it, and stores none of the rows', async () => {
    const ok: Row = { b: 1n, s: 'a', j: '{}', i: 1, d: 1, f: true };
    await expect(roundTrip([ok, { ...ok, b: 1n << 63n }])).rejects.toThrow(/k: 9223372036854775808 is outside BIGINT/);
    await expect(roundTrip([ok, { ...ok, b: 2n, i: 2 ** 31 }])).rejects.toThrow(/i: 2147483648 is not a 32-bit integer/);
    await expect(roundTrip([ok, { ...ok, b: 2n, i: 2.5 }])).rejects.toThrow(/not a 32-bit integer/);
    expect((await conn.runAndReadAll(`SELECT count(*)::INT AS n FROM ${TABLE.name}`)).getRowObjectsJS()).toEqual([{ n: 0 }]);
  });

  it('serves each batch under the same name, so that a statement prepared once reads every batch, and nothing outside serve', async () => {
    const row = (k: bigint): Row => ({ b: k, s: `value-${k}`, j: '{}', i: 1, d: 1, f: true });
    await conn.run(`DELETE FROM ${TABLE.name}`);
    const names: string[] = [];
    const statements = new PreparedStatements();
    const prepare = vi.spyOn(conn, 'prepare');
    for (const k of [1n, 2n]) {
      await source.serve([rowsFor(TABLE, [row(k), row(k + 10n)])], async ([from]) => {
        names.push(from);
        await statements.run(conn, `INSERT INTO ${TABLE.name} (${storedColumnNames(TABLE)}) SELECT * FROM ${from}`);
      });
    }
    expect(names[1]).toBe(names[0]);
    expect(prepare).toHaveBeenCalledTimes(1);
    prepare.mockRestore();
    expect((await conn.runAndReadAll(`SELECT k FROM ${TABLE.name} ORDER BY k`)).getRowObjectsJS()).toEqual([{ k: 1n }, { k: 2n }, { k: 11n }, { k: 12n }]);
    expect((await conn.runAndReadAll(`SELECT count(*)::INT AS n FROM ${names[0]}`)).getRowObjectsJS()).toEqual([{ n: 0 }]);
  });

  it('serves batches in flight at the same time under different names', async () => {
    const row = (k: bigint): Row => ({ b: k, s: 'x', j: '{}', i: 1, d: 1, f: true });
    await conn.run(`DELETE FROM ${TABLE.name}`);
    const insert = (from: string) => conn.run(`INSERT INTO ${TABLE.name} (${storedColumnNames(TABLE)}) SELECT * FROM ${from}`);
    await source.serve([rowsFor(TABLE, [row(1n)])], ([outer]) =>
      source.serve([rowsFor(TABLE, [row(2n), row(3n)])], async ([inner]) => {
        expect(inner).not.toBe(outer);
        await insert(inner);
        await insert(outer);
      }),
    );
    expect((await conn.runAndReadAll(`SELECT k FROM ${TABLE.name} ORDER BY k`)).getRowObjectsJS()).toEqual([{ k: 1n }, { k: 2n }, { k: 3n }]);
  });

  it('makes a batch wait for a free name when as many as it was made for are served', async () => {
    const one = new RowSource([TABLE as unknown as TableDef<unknown>], 1);
    const batch = rowsFor(TABLE, [{ b: 1n, s: 'x', j: '{}', i: 1, d: 1, f: true }]);
    let release!: () => void;
    const order: string[] = [];
    const first = one.serve([batch], ([from]) => {
      order.push(`first ${from}`);
      return new Promise<void>((r) => (release = r));
    });
    const second = one.serve([batch], async ([from]) => {
      order.push(`second ${from}`);
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['first coral_rows_kinds_0()']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first coral_rows_kinds_0()', 'second coral_rows_kinds_0()']);
  });

  it('refuses rows for a table it has no functions for, naming it', async () => {
    const other: TableDef<Row> = { ...TABLE, name: 'elsewhere' };
    await expect(source.serve([rowsFor(other, [])], async () => undefined)).rejects.toThrow('no row source for table elsewhere');
  });
});
