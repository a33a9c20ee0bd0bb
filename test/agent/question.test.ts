import { describe, expect, it } from 'vitest';
import { parseQuestion, sameQuestion } from '../../src/agent/question.js';
import { planCalls } from '../../src/agent/providers/question-triage.js';
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

describe('planCalls', () => {
  it('calls only the tools the question needs, with ids from the prefix', () => {
    const latency = planCalls(parseQuestion('p99 latency of cart?', SERVICES), 't-4');
    expect(latency).toEqual([{ id: 't-4-1', name: 'coral_query_metrics', args: { service: 'cart', time_range: '30m' } }]);
    const traces = planCalls(parseQuestion('traces of payment', SERVICES), 't');
    expect(traces.map((c) => c.name)).toEqual(['coral_query_traces']);
    const why = planCalls(parseQuestion('why is checkout slow?', SERVICES), 't');
    expect(why.map((c) => c.name)).toEqual(['coral_query_metrics', 'coral_query_traces', 'coral_query_summary']);
  });
});

describe('servicesInPrompt', () => {
  it('reads back the services the system prompt names', () => {
    expect(servicesInPrompt(systemPrompt({ now: new Date(), services: ['a', 'b-c'] }))).toEqual(['a', 'b-c']);
    expect(servicesInPrompt(systemPrompt({ now: new Date(), services: [] }))).toEqual([]);
  });
});
