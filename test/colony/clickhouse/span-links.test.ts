import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer } from './parity.js';
import { expectSameAnswers, withBothBackends } from './both.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { MIN, T0 } from '../../support/otlp-json.js';
import { CONSUMER_TRACE, PRODUCER_SPANS, PRODUCER_TRACES, kafkaBatchExports } from '../../support/real-shapes.js';

const DIR = join(tmpdir(), `coral-ch-links-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const WANT = PRODUCER_TRACES.map((traceId, i) => ({ traceId, spanId: PRODUCER_SPANS[i] }));

async function load(store: Colony): Promise<void> {
  for (const body of kafkaBatchExports()) await ingestExport(store, 'traces', 'json', Buffer.from(JSON.stringify(body)));
}

describe('span links', () => {
  it('DuckDB: the trace read, the tool text and its span records carry them', async () => {
    const duck = await ColonyStore.open({ path: ':memory:' });
    try {
      await load(duck);
      expect((await duck.getTrace(CONSUMER_TRACE))[0].links).toEqual(WANT);
      const a = await answer(duck, T0 + MIN, 'coral_get_trace_by_id', { trace_id: CONSUMER_TRACE });
      expect(a.text).toContain(`↪ 2 links: trace ${PRODUCER_TRACES[0]} span ${PRODUCER_SPANS[0]}, trace ${PRODUCER_TRACES[1]}`);
      const roots = (a.structured as { traces: { roots: { links: unknown }[] }[] }).traces[0].roots;
      expect(roots[0].links).toEqual(WANT);
      // A producer span links nowhere.
      expect((await duck.getTrace(PRODUCER_TRACES[0]))[0].links).toEqual([]);
    } finally {
      await duck.close();
    }
  });

  it.skipIf(!HAVE_CHDB)(`ClickHouse answers as DuckDB does${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => withBothBackends(DIR, 'links', load, async (duck, ch) => {
    expect((await ch.getTrace(CONSUMER_TRACE))[0].links).toEqual(WANT);
    await expectSameAnswers(duck, ch, T0 + MIN, [['coral_get_trace_by_id', { trace_id: CONSUMER_TRACE }], ['coral_query_traces', { trace_id: CONSUMER_TRACE }]]);
  }), 120_000);
});
