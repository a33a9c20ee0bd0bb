import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer } from './parity.js';
import { expectSameAnswers, withBothBackends, withDuckDB } from './both.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { MIN, SEC, T0, hexId, ingest, sdkResource, tracesBody } from '../../support/otlp-json.js';

const DIR = join(tmpdir(), `coral-ch-pages-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** 23 traces of one span each; durations repeat (ties the trace id must break), every fifth fails. */
const N = 23;
async function load(store: Colony): Promise<void> {
  const spans = Array.from({ length: N }, (_, i) => ({
    traceId: hexId(16, i + 1), spanId: hexId(8, i + 1), name: 'GET /api/cart', startNs: T0 + BigInt(i) * SEC,
    durationMs: 10 + (i % 4) * 10, status: (i % 5 === 0 ? 2 : 1) as 1 | 2,
  }));
  await ingest(store, 'traces', tracesBody(sdkResource('cart'), 'pages', spans));
}

const range = { fromNs: T0 - MIN, toNs: T0 + MIN };
type Order = 'errors' | 'slowest' | 'recent';

/** Every page of `size` read in turn: the trace ids in the order the pages gave them. */
async function allPages(store: Colony, order: Order, size: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; offset < N + size; offset += size) {
    const r = await store.searchTraces({ range, maxTraces: size, offset, order });
    ids.push(...r.traces.map((t) => t.traceId));
    if (r.traces.length > 0) expect(r.matchedTraces).toBe(N);
  }
  return ids;
}

describe('trace search page by page', () => {
  it('DuckDB: pages read in turn give every trace once, in the order of one whole read', () => withDuckDB(load, async (duck) => {
    for (const order of ['errors', 'slowest', 'recent'] as const) {
      const whole = (await duck.searchTraces({ range, maxTraces: 50, order })).traces.map((t) => t.traceId);
      expect(whole).toHaveLength(N);
      expect(await allPages(duck, order, 5)).toEqual(whole);
    }
    const past = await duck.searchTraces({ range, maxTraces: 5, offset: 100, order: 'errors' });
    expect(past).toEqual({ traces: [], matchedTraces: 0 });
    // The tool: the second page says which traces it holds.
    const second = await answer(duck, T0 + MIN, 'coral_query_traces', { time_range: '1h', max_traces: 5, offset: 5 });
    expect(second.text).toContain(`Showing traces 6-10 of ${N} matching traces.`);
    const end = await answer(duck, T0 + MIN, 'coral_query_traces', { time_range: '1h', max_traces: 5, offset: 40 });
    expect(end.text).toBe('No more traces: the list has fewer than 41.');
    // Past the end too, the answer says which window it read, as every windowed answer does.
    expect((end.structured as { window?: unknown }).window).toMatchObject({ label: 'last 1h', absolute: false });
  }), 60_000);

  it('the tool refuses a negative or fractional offset with a clear error', () => withDuckDB(load, async (duck) => {
    for (const offset of [-1, 1.5, 'x']) {
      const r = await answer(duck, T0 + MIN, 'coral_query_traces', { offset });
      expect(r.text).toMatch(/offset must be/);
    }
  }), 60_000);

  it.skipIf(!HAVE_CHDB)(`ClickHouse pages as DuckDB does${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => withBothBackends(DIR, 'pages', load, async (duck, ch) => {
    for (const order of ['errors', 'slowest', 'recent'] as const) expect(await allPages(ch, order, 5)).toEqual(await allPages(duck, order, 5));
    await expectSameAnswers(duck, ch, T0 + MIN, [
      ['coral_query_traces', { time_range: '1h', max_traces: 5, offset: 5 }],
      ['coral_query_traces', { time_range: '1h', max_traces: 7, offset: 21, order: 'duration' }],
      ['coral_query_traces', { time_range: '1h', max_traces: 5, offset: 40 }],
    ]);
  }), 120_000);
});
