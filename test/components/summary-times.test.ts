import { describe, expect, it } from 'vitest';
import { summaryLines } from '../../components/summary/summary-lines.js';
import type { SummaryJson } from '../../components/state/types.js';

const change = { service: 'frontend', sources: ['otlp'], status: 'degraded', ratePerSec: 1, prevRatePerSec: 1, requests: 60, errors: 0, prevRequests: 60, prevErrors: 0, errorRate: 0, prevErrorRate: 0, p95Ms: 54, prevP95Ms: 6, basis: 'spans', signals: ['P95 6ms -> 54ms; 1 min after deploy at 2026-11-27T17:37:59.915Z'], score: 1, chronic: false, failing: false, slower: true, onset: '2026-11-27T17:39:00.000Z', trigger: 'deploy at 2026-11-27T17:37:59.915Z: frontend 2.1.0', explainedBy: null };
const data: SummaryJson = {
  from: '2026-11-27T17:35:00.000Z', to: '2026-11-27T18:05:00.000Z', previousFrom: '2026-11-27T17:05:00.000Z',
  standOut: [change], services: [change], events: [],
  lookFirst: 'Where to look first: frontend (P95 6ms -> 54ms); started ~17:39, just after the deploy at 2026-11-27T17:37:59.915Z: frontend 2.1.0. Next: coral_query_metrics {"service": "frontend"}.',
  intake: null,
};

describe('times in the Summary tab', () => {
  it('are clock times like the rest of the screen ("17:37"), never a raw ISO instant', () => {
    const text = summaryLines({ data, timeRange: '30m', error: null, cursor: 0 }, 200).map((l) => l.text).join('\n');
    expect(text).toContain('just after the deploy at 17:37: frontend 2.1.0.');
    expect(text).toContain('1 min after deploy at 17:37');
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });
});
