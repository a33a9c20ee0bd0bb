import { describe, expect, it } from 'vitest';
import type { ChClient } from '../../../src/colony/store/clickhouse/client.js';
import { BOUNDS_MIN_ROWS, TraceReadCache } from '../../../src/colony/store/clickhouse/trace-read-cache.js';
import { TableRows } from '../../../src/colony/store/clickhouse/table-rows.js';

/** A client answering system.tables with the given total_rows, counting the questions. */
function catalog(rows: (string | null)[]): ChClient & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async query<T>(sql: string) {
      asked.push(sql);
      return [{ rows: rows[Math.min(asked.length - 1, rows.length - 1)] }] as T[];
    },
    command: async () => undefined,
    insert: async () => undefined,
    close: async () => undefined,
  };
}

describe('TraceReadCache', () => {
  it('asks the trace-id lookup table only from BOUNDS_MIN_ROWS rows, or when the size is unknown (Distributed)', async () => {
    const pays = async (rows: string | null) => new TraceReadCache().boundsPay(catalog([rows]), 'db', 'otel_traces');
    expect(await pays(String(BOUNDS_MIN_ROWS - 1))).toBe(false);
    expect(await pays(String(BOUNDS_MIN_ROWS))).toBe(true);
    expect(await pays(null)).toBe(true);
    const ch = catalog(['5']);
    await new TraceReadCache().boundsPay(ch, 'db', 'otel_traces');
    expect(ch.asked[0]).toContain(`database = 'db' AND name = 'otel_traces'`);
  });

  it('trusts a row count for 30 s, then asks again (a colony being written grows)', async () => {
    let now = 0;
    const ch = catalog(['10', String(BOUNDS_MIN_ROWS)]);
    const cache = new TraceReadCache(BOUNDS_MIN_ROWS, new TableRows(() => now));
    expect(await cache.boundsPay(ch, 'db', 't')).toBe(false);
    now = 30_000;
    expect(await cache.boundsPay(ch, 'db', 't')).toBe(false);
    expect(ch.asked).toHaveLength(1);
    now = 30_001;
    expect(await cache.boundsPay(ch, 'db', 't')).toBe(true);
    expect(ch.asked).toHaveLength(2);
  });

  it('remembers each table\'s row count apart', async () => {
    const ch = catalog(['10', String(BOUNDS_MIN_ROWS)]);
    const rows = new TableRows(() => 0);
    expect(await rows.atLeast(ch, 'db', 'spans', 5)).toBe(true);
    expect(await rows.atLeast(ch, 'db', 'points', 5)).toBe(true);
    expect(await rows.atLeast(ch, 'db', 'spans', 11)).toBe(false);
    expect(await rows.atLeast(ch, 'db', 'points', BOUNDS_MIN_ROWS)).toBe(true);
    expect(ch.asked).toHaveLength(2);
    expect(ch.asked[1]).toContain(`name = 'points'`);
  });

  it('remembers resource maps by hash and says which hashes are still to fetch', () => {
    const cache = new TraceReadCache();
    const a = { 'service.name': 'a' };
    expect(cache.cachedResources(['1', '2'])).toEqual({ found: new Map(), missing: ['1', '2'] });
    cache.remember(new Map([['1', a]]));
    expect(cache.cachedResources(['1', '2'])).toEqual({ found: new Map([['1', a]]), missing: ['2'] });
  });

  it('starts the resource maps again past 4096, keeping the newest', () => {
    const cache = new TraceReadCache();
    cache.remember(new Map(Array.from({ length: 4096 }, (_, i) => [String(i), { i: String(i) }])));
    expect(cache.cachedResources(['0', '4095']).missing).toEqual([]);
    cache.remember(new Map([['new', { i: 'new' }]]));
    expect(cache.cachedResources(['0', 'new'])).toEqual({ found: new Map([['new', { i: 'new' }]]), missing: ['0'] });
  });
});
