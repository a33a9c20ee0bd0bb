import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { answer } from './parity.js';
import { expectSameAnswers, withBothBackends, withDuckDB } from './both.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { nsToIso } from '../../../src/core/time.js';
import { MIN, T0 } from '../../support/otlp-json.js';
import { flagdExport } from '../../support/real-shapes.js';

const DIR = join(tmpdir(), `coral-ch-windows-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
// The recording covers T0 .. T0+60m; the clock stands a month later, so only start/end reach it.
const THEN = T0 + 60n * MIN;
const LATER = T0 + 30n * 1440n * MIN;
const WINDOW = { start: nsToIso(T0 + 30n * MIN), end: nsToIso(THEN) };

async function load(store: Colony): Promise<void> {
  await ingestExport(store, 'traces', 'json', Buffer.from(JSON.stringify(flagdExport())));
}

type Summary = { from: string; previousFrom: string; services: { service: string; requests: number; ratePerSec: number; prevRatePerSec: number | null }[] };

/** An absolute window a month on answers what time_range answered at the time, comparison window included. */
async function check(store: Colony): Promise<void> {
  const then = (await answer(store, THEN, 'coral_query_summary', { time_range: '30m' })).structured as Summary;
  const later = await answer(store, LATER, 'coral_query_summary', WINDOW);
  const s = later.structured as Summary;
  expect(s.previousFrom).toBe(nsToIso(T0));
  expect(s.services).toEqual(then.services);
  expect(s.services.find((c) => c.service === 'flagd')?.prevRatePerSec).toBeGreaterThan(0);
  expect(later.text.split('\n')[0]).toBe('Colony summary, 2025-12-02 11:00-11:30 UTC (30 min), compared with the 30 min before.');
  const red = await answer(store, LATER, 'coral_query_metrics', { service: 'flagd', ...WINDOW });
  expect(red.text.split('\n')[0]).toBe('Service: flagd, 2025-12-02 11:00-11:30 UTC (30 min)');
  expect(red.text).toMatch(/ResolveBoolean/);
}

describe('absolute windows (start/end) on both backends', () => {
  it('DuckDB', () => withDuckDB(load, check));

  it.skipIf(!HAVE_CHDB)(`ClickHouse, the same answers${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => withBothBackends(DIR, 'windows', load, async (duck, ch) => {
    await check(ch);
    await expectSameAnswers(duck, ch, LATER, [
      ['coral_query_summary', WINDOW],
      ['coral_query_metrics', { service: 'flagd', ...WINDOW }],
      ['coral_query_traces', { service: 'flagd', ...WINDOW, max_traces: 3 }],
      ['coral_get_service_health', { end: WINDOW.end, time_range: '10m' }],
      ['coral_query_traces', { start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00Z' }],
    ]);
  }), 120_000);
});
