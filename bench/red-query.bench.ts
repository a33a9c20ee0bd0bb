/**
 * RED-metric queries over a colony of 1,000,000 spans and 1,000,000 Beyla-style histogram points
 * (cumulative, 60 s interval). Target (issue 2): <= 100 ms per query.
 */
import { ColonyStore } from '../src/colony/store/store.js';
import type { RedQuery } from '../src/colony/store/queries/red.js';
import { END, SEC, populate } from './synthetic.js';
import { report, timeRuns } from './report.js';

const SPANS = Number(process.env.BENCH_RED_SPANS ?? 1_000_000);
const POINTS = Number(process.env.BENCH_RED_POINTS ?? 1_000_000);

const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '8GB' });
const loadStart = performance.now();
await populate(store, SPANS, POINTS);
const counts = await store.counts();
const loadMs = performance.now() - loadStart;
const q: RedQuery = { service: 'svc-3', protocol: 'http', range: { fromNs: END - 3600n * SEC, toNs: END } };
const fromSpans = await timeRuns(() => store.redFromSpans(q));
const fromHistograms = await timeRuns(() => store.redFromHistograms(q));
const filtered = await timeRuns(() => store.redFromSpans({ ...q, httpRoute: '/api/r3', statusCodeRange: '5xx' }));
for (const [name, t] of [['red_from_spans', fromSpans], ['red_from_histograms', fromHistograms], ['red_from_spans_filtered', filtered]] as const) {
  report({
    bench: name,
    spans: counts.spans,
    histogram_points: counts.histogramPoints,
    window: '1h',
    p50_ms: Number(t.p50.toFixed(1)),
    max_ms: Number(t.max.toFixed(1)),
    target_ms: 100,
    meets_target: t.p50 <= 100,
  });
}
report({ bench: 'red_fixture_load', rows: counts.spans + counts.histogramPoints, load_ms: Math.round(loadMs) });
await store.close();
