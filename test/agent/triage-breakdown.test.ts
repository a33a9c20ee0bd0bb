import { describe, expect, it } from 'vitest';
import { concentration } from '../../src/agent/providers/triage.js';

describe("the triage's breakdown line", () => {
  const key = (label: string, value: string, anomalyShare: number, baselineShare: number) => ({ label, top: [{ value, anomalyShare, baselineShare }] });

  it('an instance apart from its siblings first, else the top value with its shares, else says nothing stands out', () => {
    expect(concentration({ compare: 'slow', instanceLine: '1 of 5 pods: api-7f9c (P95 254ms vs 73ms)', keys: [key('route', '/cart', 0.9, 0.2)] })).toBe('1 of 5 pods: api-7f9c (P95 254ms vs 73ms)');
    expect(concentration({ compare: 'errors', instanceLine: null, keys: [key('route', '/cart/{id}', 1, 0.333), key('method', 'POST', 0.5, 0.2)] }))
      .toBe('route /cart/{id}: 100% of its failing requests against 33% of the rest');
    expect(concentration({ compare: 'window', instanceLine: null, keys: [] })).toBe('nowhere in particular: no instance, version, route or other attribute value stands out among its requests this window');
  });

  it('no breakdown, or a failed one (no structured answer): no line', () => {
    expect(concentration(undefined)).toBeUndefined();
    expect(concentration({})).toBeUndefined();
  });
});
