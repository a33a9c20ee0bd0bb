import { describe, expect, it } from 'vitest';
import { questionSignals, sameQuestion } from '../../src/agent/question.js';
import { planFirst } from '../../src/agent/providers/question-plan.js';
import { understand } from '../../src/agent/understand/index.js';
import { servicesInPrompt, systemPrompt } from '../../src/agent/prompt.js';

const SERVICES = ['frontend-proxy', 'frontend', 'cart', 'checkout', 'payment', 'product-catalog'];

describe('understand: the services named and the signals asked about', () => {
  const named = (q: string) => understand(q, SERVICES).services.map((s) => s.name);
  it('finds the services named, longest name first, plurals and spaces included, in question order', () => {
    expect(named('Why is the frontend-proxy slower than checkout?')).toEqual(['frontend-proxy', 'checkout']);
    expect(named('Why are checkouts failing?')).toEqual(['checkout']);
    expect(named('p99 of the product catalog and cart')).toEqual(['product-catalog', 'cart']);
    expect(named('is the shopping cartography ok')).toEqual([]);
  });

  it('reads the signals asked about and the percentiles named', () => {
    expect(questionSignals('what is the p99 latency of the cart service?')).toEqual({ signals: ['latency'], percentiles: [99] });
    expect(questionSignals('is payment failing with 500s?').signals).toEqual(['errors']);
    expect(questionSignals('how much traffic does cart get, in requests per second?').signals).toEqual(['traffic']);
    expect(questionSignals('show slow traces for checkout').signals).toEqual(['latency', 'traces']);
    expect(questionSignals('what changed after the deploy?').signals).toEqual(['change']);
    expect(understand('what is the p99 latency of the cart service?', SERVICES).kind).not.toBe('diagnosis');
    expect(understand("what's wrong?", SERVICES).kind).toBe('diagnosis');
    expect(understand('what is the weather?', SERVICES)).toMatchObject({ services: [], signals: [], kind: 'unknown' });
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

  it('asks a tool without start/end for the window back from now that covers all of the asked one', () => {
    const late = { ...ctx, nowMs: Date.parse('2026-01-01T12:00:20Z') };
    expect(planFirst(understand('errors of cart between 11:00 and 11:20', SERVICES), late, 't')[1].args).toEqual({ service: 'cart', time_range: '61m' });
  });
});

describe('servicesInPrompt', () => {
  it('reads back the services the system prompt names', () => {
    expect(servicesInPrompt(systemPrompt({ now: new Date(), services: ['a', 'b-c'] }))).toEqual(['a', 'b-c']);
    expect(servicesInPrompt(systemPrompt({ now: new Date(), services: [] }))).toEqual([]);
  });
});
