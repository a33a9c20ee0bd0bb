import { describe, expect, it } from 'vitest';
import { parseQuestion, sameQuestion } from '../../src/agent/question.js';
import { planFirst } from '../../src/agent/providers/question-plan.js';
import { understand } from '../../src/agent/understand/index.js';
import { servicesInPrompt, systemPrompt } from '../../src/agent/prompt.js';

const SERVICES = ['frontend-proxy', 'frontend', 'cart', 'checkout', 'payment', 'product-catalog'];

describe('parseQuestion', () => {
  it('finds the services named, longest name first, plurals and spaces included, in question order', () => {
    expect(parseQuestion('Why is the frontend-proxy slower than checkout?', SERVICES).services).toEqual(['frontend-proxy', 'checkout']);
    expect(parseQuestion('Why are checkouts failing?', SERVICES).services).toEqual(['checkout']);
    expect(parseQuestion('p99 of the product catalog and cart', SERVICES).services).toEqual(['product-catalog', 'cart']);
    expect(parseQuestion('is the shopping cartography ok', SERVICES).services).toEqual([]);
  });

  it('reads the signals asked about and the percentiles named', () => {
    expect(parseQuestion('what is the p99 latency of the cart service?', SERVICES)).toMatchObject({ signals: ['latency'], percentiles: [99], diagnosis: false });
    expect(parseQuestion('is payment failing with 500s?', SERVICES).signals).toEqual(['errors']);
    expect(parseQuestion('how much traffic does cart get, in requests per second?', SERVICES).signals).toEqual(['traffic']);
    expect(parseQuestion('show slow traces for checkout', SERVICES).signals).toEqual(['latency', 'traces']);
    expect(parseQuestion('what changed after the deploy?', SERVICES).signals).toEqual(['change']);
    expect(parseQuestion("what's wrong?", SERVICES).diagnosis).toBe(true);
    expect(parseQuestion('what is the weather?', SERVICES)).toMatchObject({ services: [], signals: [], diagnosis: false });
  });
});

describe('sameQuestion', () => {
  it('ignores case, spacing and closing punctuation, nothing else', () => {
    expect(sameQuestion('Why are checkouts failing?', '  why are  checkouts failing ')).toBe(true);
    expect(sameQuestion('Why are checkouts failing?', 'Why are checkouts slow?')).toBe(false);
  });
});

describe('planFirst', () => {
  const ctx = { nowMs: Date.parse('2026-01-01T12:00:00Z'), startEnd: new Set<string>(), tools: new Set<string>() };
  const plan = (q: string) => planFirst(understand(q, SERVICES), ctx, 't-4');
  it('calls the summary (status, onsets, events) and only the other tools the question needs, with ids from the prefix', () => {
    expect(plan('p99 latency of cart?')).toEqual([
      { id: 't-4-1', name: 'coral_query_summary', args: { time_range: '30m' } },
      { id: 't-4-2', name: 'coral_query_metrics', args: { service: 'cart', time_range: '30m' } },
    ]);
    expect(plan('traces of payment').map((c) => c.name)).toEqual(['coral_query_summary', 'coral_query_traces']);
    expect(plan('why is checkout slow?').map((c) => c.name)).toEqual(['coral_query_summary', 'coral_query_metrics', 'coral_query_traces']);
  });

  it('asks over the window of the question\'s words', () => {
    expect(plan('errors of cart in the last 15 minutes')[1].args).toEqual({ service: 'cart', time_range: '15m' });
  });
});

describe('servicesInPrompt', () => {
  it('reads back the services the system prompt names', () => {
    expect(servicesInPrompt(systemPrompt({ now: new Date(), services: ['a', 'b-c'] }))).toEqual(['a', 'b-c']);
    expect(servicesInPrompt(systemPrompt({ now: new Date(), services: [] }))).toEqual([]);
  });
});
