import { afterEach, describe, expect, it, vi } from 'vitest';
import { printToolOutput } from '../../src/commands/query-output.js';

const metric = (over: Record<string, unknown>) => ({
  metricName: 'm', unit: 'ms', type: 'gauge', source: 'otlp', serviceName: 's', points: 1, series: 1, last: null, min: null, max: null, avg: null, quantiles: null, ...over,
});

function printed(metrics: object[]): string {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  printToolOutput('coral_query_telemetry_metrics', { text: '', structured: { metrics } }, 'table');
  return out.join('');
}

afterEach(() => vi.restoreAllMocks());

describe('coral query telemetry metrics, as a table', () => {
  it("shows a summary's latest quantiles, and says when they are per series", () => {
    const text = printed([
      metric({ metricName: 'gc.pause', type: 'summary', quantiles: [{ quantile: 0.5, value: 1.5 }, { quantile: 0.29, value: 2 }] }),
      metric({ metricName: 'rpc.latency', type: 'summary', series: 2 }),
      metric({ metricName: 'mem', type: 'gauge', last: 3 }),
    ]);
    expect(text).toContain('quantiles');
    expect(text).toMatch(/gc\.pause .*│ p50 1\.5, p29 2 /);
    expect(text).toMatch(/rpc\.latency .*│ per series /);
    expect(text).toMatch(/mem .*│ 3 .*│ +│$/m);
  });
});
