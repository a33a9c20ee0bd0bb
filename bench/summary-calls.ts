/**
 * The store calls coral_query_summary makes (tools/summary.ts, default 30m window), each timed alone,
 * one after another: which ones a backend spends its time in. The tool asks them all at once, and
 * ClickHouse answers the pairs asked for two windows with one query each, so the tool's own figure
 * is not the sum of these.
 */
import type { Colony } from '../src/colony/store/colony.js';
import { SATURATION_GAUGES } from '../src/colony/unified/summary.js';
import type { Nanos } from '../src/core/time.js';
import { timeRuns } from './report.js';

const WINDOW_NS = 30n * 60_000_000_000n;

export async function timeSummaryCalls(store: Colony, now: Nanos, runs: number): Promise<{ call: string; p50: number; cpuP50: number }[]> {
  const range = { fromNs: now - WINDOW_NS, toNs: now };
  const prev = { fromNs: now - 2n * WINDOW_NS, toNs: now - WINDOW_NS };
  const both = { fromNs: prev.fromNs, toNs: now };
  const calls: [string, () => Promise<unknown>][] = [
    ['serviceHealth', () => store.serviceHealth(range)],
    ['operationSpanBuckets x2', () => Promise.all([store.operationSpanBuckets(range), store.operationSpanBuckets(prev)])],
    ['operationHistograms x2', () => Promise.all([store.operationHistograms(range), store.operationHistograms(prev)])],
    ['callSpans x2', () => Promise.all([store.callSpans(range, 800), store.callSpans(prev, 800)])],
    ['minuteSeries', () => store.minuteSeries(both)],
    ['gaugePoints', () => store.gaugePoints(both, SATURATION_GAUGES)],
    ['queryEvents', () => store.queryEvents({ range: both, limit: 50 })],
    ['topology x2', () => Promise.all([store.topology(range), store.topology(prev)])],
  ];
  const out = [];
  for (const [call, fn] of calls) out.push({ call, ...(await timeRuns(fn, runs)) });
  return out;
}
