import { describe, expect, it } from 'vitest';
import { type ServiceState, healthWord, verdict } from '../../../src/agent/understand/verdict.js';

const base: ServiceState = {
  service: 'currency', status: 'healthy', signals: [], failing: false, slower: false, chronic: false, errorRate: 0, prevErrorRate: 0,
  p95Ms: 5, prevP95Ms: 5, ratePerSec: 1, prevRatePerSec: 1, requests: 1800, explainedBy: null, trigger: null, onset: null,
};

describe('healthWord', () => {
  it('reads latency, silence, callers\' failures and traffic, not errors alone', () => {
    expect(healthWord(base)).toBe('healthy');
    expect(healthWord({ ...base, slower: true, signals: ['P95 4.75ms -> 452ms'] })).toBe('slow');
    expect(healthWord({ ...base, signals: ['traffic stopped'] })).toBe('down');
    expect(healthWord({ ...base, status: 'degraded', signals: ["rejects its callers' calls, client errors rather than server errors"] })).toBe('failing');
    expect(healthWord({ ...base, signals: ['traffic 0.33/s -> 0.82/s'] })).toBe('healthy');
    expect(healthWord({ ...base, signals: ['traffic 0.80/s -> 0.20/s'] })).toBe('degraded');
  });
});

describe('verdict', () => {
  const slow = { ...base, slower: true, signals: ['P95 4.75ms -> 452ms'] };
  it('answers the question asked, whichever way it leans', () => {
    expect(verdict('is currency healthy?', slow)).toBe('No');
    expect(verdict('is currency healthy?', base)).toBe('Yes');
    expect(verdict('is currency slow?', slow)).toBe('Yes');
    expect(verdict('is currency down?', slow)).toBe('No');
    expect(verdict('is currency failing?', slow)).toBe('No');
    // Failing and slower: slow is still yes (the failing word wins the health word, not this question).
    const both = { ...slow, failing: true, status: 'unhealthy' };
    expect(verdict('currencyservice slow?', both)).toBe('Yes');
  });

  it('a chronic state is not a change', () => {
    const cart = { ...base, service: 'cart', chronic: true, errorRate: 0.03, signals: ['errors 2.9%, chronic (1.6% in the previous window)'] };
    // Chronic is not worse than usual.
    expect(verdict('is cart worse than usual?', cart)).toBe('No');
    expect(verdict('are the cart errors new?', cart)).toBe('No');
    expect(verdict('is currency worse than usual?', { ...base, slower: true, signals: ['P95 4.75ms -> 452ms'] })).toBe('Yes');
  });
});
