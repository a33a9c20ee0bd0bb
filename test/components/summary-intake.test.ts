import { describe, expect, it } from 'vitest';
import { summaryLines } from '../../components/summary/summary-lines.js';
import type { ServiceChange } from '../../src/colony/unified/summary.js';

/** When nothing is received, the Summary tab says so first and does not claim that "nothing stands out". */
const silent = (service: string): ServiceChange => ({
  service, sources: ['otlp'], status: 'unhealthy', ratePerSec: 0, prevRatePerSec: 1, requests: 0, errors: 0, prevRequests: 1800, prevErrors: 0,
  errorRate: 0, prevErrorRate: 0, p95Ms: null, prevP95Ms: 40, basis: 'no requests', signals: ['no telemetry for 12.0 min'], score: 20,
  chronic: false, failing: false, slower: false, onset: null, trigger: null, explainedBy: null,
});
const intake = 'Nothing received since 11:29 UTC (12 min before 11:42 UTC): all 2 services went silent at once. That is the colony\'s intake (collector, exporter, network) or the whole system, not one service.';

describe('summaryLines when the colony receives nothing', () => {
  it('leads with the intake and names no service as standing out', () => {
    const data = { from: '2025-12-02T11:12:00.000Z', to: '2025-12-02T11:42:00.000Z', previousFrom: '2025-12-02T10:42:00.000Z', standOut: [], services: [silent('ad'), silent('cart')], events: [], lookFirst: intake, intake };
    const text = summaryLines({ data, timeRange: '30m', error: null, cursor: 0 }, 400).map((l) => l.text).join('\n');
    expect(text).toContain(intake);
    expect(text).toContain('No service is named: the silence is not one service\'s.');
    expect(text).not.toContain('Nothing stands out');
  });
});
