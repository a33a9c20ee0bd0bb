import { describe, expect, it } from 'vitest';
import { noTracesText } from '../../components/state/reducer.js';
import { summaryLines } from '../../components/summary/summary-lines.js';

/** The console's tabs state an absolute window as the tools do, never as "last <time_range>". */
describe('console headings for an absolute window', () => {
  const data = { from: '2025-12-02T10:30:00.000Z', to: '2025-12-02T10:40:00.000Z', previousFrom: '2025-12-02T10:20:00.000Z', standOut: [], services: [], events: [], lookFirst: '' };

  it('the Summary tab heads with the window the tool states, and keeps "Last 30m (...)" for a relative one', () => {
    const fixed = summaryLines({ data: { ...data, window: { label: '2025-12-02 10:30-10:40 UTC (10 min)', absolute: true } }, timeRange: '30m', error: null, cursor: 0 }, 400).map((l) => l.text);
    expect(fixed[0]).toBe('2025-12-02 10:30-10:40 UTC (10 min) against the window of the same length before');
    expect(fixed[1]).toBe('No services have sent telemetry in 2025-12-02 10:30-10:40 UTC (10 min).');
    const relative = summaryLines({ data: { ...data, window: { label: 'last 30m', absolute: false } }, timeRange: '30m', error: null, cursor: 0 }, 400).map((l) => l.text);
    expect(relative[0]).toBe('Last 30m (10:30-10:40 UTC) against the 30m before');
  });

  it('an empty trace result names the start/end it was asked for', () => {
    expect(noTracesText({ service: 'cart', start: '2025-12-02T10:30:00Z', end: '2025-12-02T10:40:00Z' })).toBe('No traces for cart in 2025-12-02T10:30:00Z .. 2025-12-02T10:40:00Z (try a wider --since)');
    expect(noTracesText({ service: 'cart', start: '2025-12-02T10:30:00Z' })).toBe('No traces for cart in 2025-12-02T10:30:00Z .. now (try a wider --since)');
  });
});
