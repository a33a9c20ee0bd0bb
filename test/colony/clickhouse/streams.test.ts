import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer } from './parity.js';
import { cliTable, expectSameAnswers, withBothBackends, withDuckDB } from './both.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { MIN, T0 } from '../../support/otlp-json.js';
import { flagdExport } from '../../support/real-shapes.js';

const DIR = join(tmpdir(), `coral-ch-streams-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const NOW = T0 + 60n * MIN;

async function load(store: Colony): Promise<void> {
  await ingestExport(store, 'traces', 'json', Buffer.from(JSON.stringify(flagdExport())));
}

interface Summary { services: { service: string; p95Ms: number | null; requests: number; slower: boolean; signals: string[] }[]; standOut: unknown[]; streams: { operation: string; streams: number }[] }

async function check(store: Colony): Promise<void> {
  const s = await answer(store, NOW, 'coral_query_summary', {});
  const summary = s.structured as Summary;
  const flagd = summary.services.find((c) => c.service === 'flagd');
  // The unary calls' P95, not a stream's lifetime; nothing blamed for latency.
  expect(flagd?.p95Ms).toBeLessThan(5);
  // Its requests are the 120 calls of the window: the 12 streams are not requests it answered.
  expect(flagd?.requests).toBe(120);
  // Nor are they anyone's own time or a callee's: the self-time sample holds the calls only.
  const sampled = await store.callSpans({ fromNs: NOW - 30n * MIN, toNs: NOW }, 800);
  expect(sampled).toHaveLength(120);
  // Nor do they move the per-minute series the onset is read from.
  const minutes = await store.minuteSeries({ fromNs: NOW - 30n * MIN, toNs: NOW });
  expect(minutes.reduce((n, m) => n + m.requests, 0)).toBe(120);
  expect(flagd?.slower).toBe(false);
  expect(summary.standOut).toEqual([]);
  expect(summary.streams).toEqual([expect.objectContaining({ operation: 'flagd.evaluation.v1.Service/EventStream', streams: 12 })]);
  expect(s.text).toMatch(/Streams \(long-lived RPCs[^\n]*\n  flagd flagd\.evaluation\.v1\.Service\/EventStream: 12 streams closed, half within \d+\.\ds, longest ~\d+\.\ds \(SDK spans\)/);
  const red = await answer(store, NOW, 'coral_query_metrics', { service: 'flagd', time_range: '30m' });
  expect(red.text).toMatch(/Method: flagd\.evaluation\.v1\.Service\/EventStream \(stream: durations are how long clients stayed connected\)/);
  expect(await cliTable(store, NOW, 'coral_query_metrics', { service: 'flagd', time_range: '30m' })).toContain('flagd.evaluation.v1.Service/EventStream (stream)');
  expect(red.text).toMatch(/slowest P99 is [\d.]+ms on flagd\.evaluation\.v1\.Service\/ResolveBoolean/);
}

describe('streaming RPCs are read as streams, not slow calls', () => {
  it('DuckDB', () => withDuckDB(load, check));

  it.skipIf(!HAVE_CHDB)(`ClickHouse, the same answers${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => withBothBackends(DIR, 'streams', load, async (duck, ch) => {
    await check(ch);
    await expectSameAnswers(duck, ch, NOW, [['coral_query_summary', {}], ['coral_query_metrics', { service: 'flagd', time_range: '30m' }]]);
  }), 120_000);
});
