import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB } from '../clickhouse/chdb.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { MIN, SEC, T0, hexId, ingest, sdkResource, tracesBody, type SpanSpec } from '../../support/otlp-json.js';

/**
 * Send-to-process waits of messages, on both backends: the producer found through the consumer's
 * parent or its first link, the producer's end to the consumer's start, a producer sent before the
 * window still matched, consumers with no producer to be found left out.
 */
const DIR = join(tmpdir(), `coral-messaging-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const WINDOW = { fromNs: T0 + 10n * MIN, toNs: T0 + 20n * MIN };

async function fill(store: Pick<Colony, 'write'>): Promise<void> {
  const producers: SpanSpec[] = [];
  const byParent: SpanSpec[] = [];
  const byLink: SpanSpec[] = [];
  // checkout sends 4 messages: 2 consumed by accounting through context (waits 1 s and 3 s), 2 by
  // fraud-detection through links (the first sent 5 minutes before the window, processed 9 min later).
  const sends = [T0 + 12n * MIN, T0 + 13n * MIN, T0 + 5n * MIN, T0 + 15n * MIN];
  sends.forEach((at, i) => producers.push({ traceId: hexId(16, i + 1), spanId: hexId(8, i + 1), kind: 4, name: 'orders publish', startNs: at, durationMs: 2, attributes: { 'messaging.system': 'kafka' } }));
  byParent.push({ traceId: hexId(16, 1), spanId: hexId(8, 11), parentSpanId: hexId(8, 1), kind: 5, name: 'orders process', startNs: sends[0] + 2_000_000n + SEC, durationMs: 5 });
  byParent.push({ traceId: hexId(16, 2), spanId: hexId(8, 12), parentSpanId: hexId(8, 2), kind: 5, name: 'orders process', startNs: sends[1] + 2_000_000n + 3n * SEC, durationMs: 5 });
  byLink.push({ traceId: hexId(16, 31), spanId: hexId(8, 13), kind: 5, name: 'orders process', startNs: sends[2] + 2_000_000n + 9n * MIN, durationMs: 5, links: [{ traceId: hexId(16, 3), spanId: hexId(8, 3) }] });
  byLink.push({ traceId: hexId(16, 32), spanId: hexId(8, 14), kind: 5, name: 'orders process', startNs: sends[3] + 2_000_000n + MIN, durationMs: 5, links: [{ traceId: hexId(16, 4), spanId: hexId(8, 4) }] });
  // A consumer whose producer was never seen, and one before the window: neither counts.
  byLink.push({ traceId: hexId(16, 33), spanId: hexId(8, 15), kind: 5, name: 'orders process', startNs: T0 + 14n * MIN, durationMs: 5, links: [{ traceId: hexId(16, 99), spanId: hexId(8, 99) }] });
  byParent.push({ traceId: hexId(16, 3), spanId: hexId(8, 16), parentSpanId: hexId(8, 3), kind: 5, name: 'orders process', startNs: sends[2] + 2_000_000n + SEC, durationMs: 5 });
  await ingest(store, 'traces', tracesBody(sdkResource('checkout'), 'kafkajs', producers));
  await ingest(store, 'traces', tracesBody(sdkResource('accounting'), 'kafkajs', byParent));
  await ingest(store, 'traces', tracesBody(sdkResource('fraud-detection'), 'kafkajs', byLink));
}

const EXPECTED = [
  { service: 'accounting', source: 'otlp', hops: 2, meanDelayMs: 2000, maxDelayMs: 3000 },
  { service: 'fraud-detection', source: 'otlp', hops: 2, meanDelayMs: 300_000, maxDelayMs: 540_000 },
];

describe('messaging delays', () => {
  it('DuckDB: through parents and links, producers before the window, unmatched consumers left out', async () => {
    const store = await ColonyStore.open({ path: ':memory:' });
    try {
      await fill(store);
      expect(await store.messagingDelays(WINDOW)).toEqual(EXPECTED);
      expect(await store.messagingDelays({ fromNs: T0 + 30n * MIN, toNs: T0 + 40n * MIN })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!HAVE_CHDB)('ClickHouse: the same answer', async () => {
    const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'messaging' }, create: true });
    try {
      await fill(ch);
      expect(await ch.messagingDelays(WINDOW)).toEqual(EXPECTED);
    } finally {
      await ch.close();
    }
  }, 120_000);
});
