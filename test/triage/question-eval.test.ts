import { describe, expect, it } from 'vitest';
import { headOf, numbersIn, renderClock, scoreAnswer, subjectOf, tally, verdictOf, windowRegex } from '../../src/demo/question-eval.js';
import { parseQuestionFile } from '../../src/demo/question-files.js';

const SERVICES = ['frontend-proxy', 'frontend', 'ad', 'cart', 'checkout', 'currency', 'payment', 'product-catalog', 'fraud-detection', 'accounting'];
const LABEL = 'Automatic triage (no model configured) answering "is currency healthy?": the tools\' findings, not a diagnosis.';

describe('scoring an answer against the facts a question expects', () => {
  const currency = { verdict: 'no' as const, headMentions: ['currency'], mustNotBeAbout: ['frontend', 'checkout'], numbers: [{ near: [371, 449], unit: 'ms' as const, tolerance: 0.2 }] };

  it('a correct answer is fully answered', () => {
    const answer = `${LABEL}\n\nNo: currency is degraded, P95 1.22ms -> 452 ms since 11:35 (last 30 min) [1].\n\nEvidence: ...`;
    expect(scoreAnswer(answer, currency, SERVICES, { question: 'is currency healthy?' })).toEqual({ outcome: 'full', misses: [] });
  });

  it('an answer about a different service is confidently wrong', () => {
    const answer = `${LABEL}\n\nNo: frontend fails 8.2% of requests, P95 261ms [1]. currency is slow too.`;
    const s = scoreAnswer(answer, currency, SERVICES, { question: 'is currency healthy?' });
    expect(s.outcome).toBe('wrong');
    expect(s.misses[0]).toBe('answers about frontend');
  });

  it('naming another service first is not wrong when the one asked about is in the same sentence', () => {
    const e = { verdict: 'yes' as const, headMentions: ['accounting'], mustNotBeAbout: ['fraud-detection'] };
    expect(scoreAnswer('Yes: unlike fraud-detection, accounting keeps up (lag 0).', e, SERVICES).outcome).toBe('full');
    expect(scoreAnswer('Yes: fraud-detection lags 2,390 messages.', e, SERVICES).outcome).toBe('wrong');
    // Without a verdict, a colony-wide finding that names the asked service in passing is still about another one.
    expect(scoreAnswer('Finding: fraud-detection stands out: lag 2,390 (accounting keeps up).', e, SERVICES).outcome).toBe('wrong');
  });

  it('a clock time is found inside an ISO timestamp', () => {
    expect(scoreAnswer('payment 2.1.0 deployed at 2026-01-05T11:34:00.000Z', { mustMention: ['11:34'] }, SERVICES).outcome).toBe('full');
    expect(scoreAnswer('at 111:345', { mustMention: ['11:34'] }, SERVICES).outcome).toBe('partial');
  });

  it('the opposite verdict is confidently wrong; no verdict is partial', () => {
    expect(scoreAnswer('Yes: currency is healthy, P95 371ms.', currency, SERVICES).outcome).toBe('wrong');
    const none = scoreAnswer('currency latency, last 30m: P95 449ms [1].', currency, SERVICES);
    expect(none).toEqual({ outcome: 'partial', misses: ['no no/no verdict on the first line'] });
  });

  it('"could not tell" is partial, with every missing fact named', () => {
    const s = scoreAnswer('Automatic triage (no model configured) could not tell what this question asks.\nServices: frontend, cart, currency.', currency, SERVICES);
    expect(s.outcome).toBe('partial');
    expect(s.misses).toContain('no no/no verdict on the first line');
    expect(s.misses.some((m) => m.startsWith('no number near 371 or 449ms'))).toBe(true);
  });

  it('a number away from the data is a miss; one within tolerance (any unit of time) is not', () => {
    const e = { numbers: [{ near: 2489, unit: 'ms' as const, tolerance: 0.2 }] };
    expect(scoreAnswer('payment P95 2.5 s', e, SERVICES).outcome).toBe('full');
    expect(scoreAnswer('payment P95 2,480ms', e, SERVICES).outcome).toBe('full');
    expect(scoreAnswer('payment P95 9.4ms', e, SERVICES).outcome).toBe('partial');
  });

  it('a number the question asks for must be on the first line when marked inHead', () => {
    const e = { numbers: [{ near: 322, unit: 'ms' as const, tolerance: 0.2, inHead: true }] };
    expect(scoreAnswer('cart P99 is 322ms (last 30 min) [1].\nmore', e, SERVICES).outcome).toBe('full');
    const s = scoreAnswer('cart latency, last 30m [1]:\n  GetCart: P99 322ms', e, SERVICES);
    expect(s).toEqual({ outcome: 'partial', misses: ['no number near 322ms on the first line'] });
  });

  it('an absent thing: saying it is not here and listing what is, vs answering about another service', () => {
    const e = { absent: 'billing', mustNotBeAbout: ['frontend'] };
    const good = 'There is no billing service in this colony. Services here: frontend, cart, checkout, payment, currency.';
    expect(scoreAnswer(good, e, SERVICES, { question: 'is the billing service down?' }).outcome).toBe('full');
    const wrong = 'Automatic triage (no model configured) answering "is the billing service down?": x\n\nfrontend: errors 3.2% [1].';
    expect(scoreAnswer(wrong, e, SERVICES, { question: 'is the billing service down?' }).outcome).toBe('wrong');
  });

  it('the question repeated in the answer does not count as naming what it names', () => {
    const s = scoreAnswer(`${LABEL}\nI could not tell.`, { mustMention: ['currency'] }, SERVICES, { question: 'is currency healthy?' });
    expect(s).toEqual({ outcome: 'partial', misses: ['does not mention currency'] });
  });

  it('the question unquoted in the answer is the answer\'s own words', () => {
    expect(scoreAnswer('cart p95 is 3.05ms over the last 30 min.', { headMentions: ['cart'] }, SERVICES, { question: 'cart p95' }).outcome).toBe('full');
  });

  it('denying that a named thing exists is confidently wrong', () => {
    const s = scoreAnswer('There is no currency service here; the closest is cart.', { mustMention: ['currency'] }, SERVICES);
    expect(s.outcome).toBe('wrong');
  });

  it('the window must be stated, in any of its spellings', () => {
    expect(windowRegex('15m').test('last 15 minutes')).toBe(true);
    expect(windowRegex('15m').test('(15 min)')).toBe(true);
    expect(windowRegex('15m').test('last 150 minutes')).toBe(false);
    expect(windowRegex('1h').test('over the last hour')).toBe(true);
    expect(windowRegex('24h').test('last 24 hours')).toBe(true);
    expect(windowRegex('11:40').test('since 11:40 UTC')).toBe(true);
    expect(windowRegex('11:40').test('since 11:405')).toBe(false);
  });
});

describe('reading an answer', () => {
  it('the head skips the label line but keeps a verdict written in it', () => {
    expect(headOf(`${LABEL}\n\nNo: currency is slow.\nmore`)).toBe('Automatic triage (no model configured) answering "": the tools\' findings, not a diagnosis.\nNo: currency is slow.');
    expect(verdictOf(headOf('Automatic triage (no model configured): Yes, payment fails 37%.'))).toBe('yes');
    expect(verdictOf(headOf(`${LABEL}\n**Answer:** no, it is not.`))).toBe('no');
    expect(verdictOf('currency: no errors')).toBe(null);
  });

  it('the subject is the first service named; longer names win, routes are not services', () => {
    expect(subjectOf('frontend-proxy fails because frontend does', SERVICES)).toBe('frontend-proxy');
    expect(subjectOf('GET /api/cart on frontend: P95 54ms', SERVICES)).toBe('frontend');
    expect(subjectOf('oteldemo.CartService/GetCart calls from payment fail', SERVICES)).toBe('payment');
    expect(subjectOf('There is no billing here. Services: frontend, cart.', SERVICES)).toBe(null);
    expect(subjectOf('nothing stands out', SERVICES)).toBe(null);
  });

  it('numbers with their units; identifiers, versions and clock times are not quantities', () => {
    expect(numbersIn('P95 1,098ms, 8.2% errors, 0.42/s, 2.7 min, 1.5 s, p99, 2.1.0 at 11:35, 759 requests')).toEqual([
      { value: 1098, unit: 'ms' }, { value: 8.2, unit: '%' }, { value: 0.42, unit: '/s' }, { value: 162000, unit: 'ms' }, { value: 1500, unit: 'ms' }, { value: 759, unit: 'count' },
    ]);
  });

  it('clock times in a question follow the loaded hour', () => {
    const end = Date.parse('2026-01-05T13:07:30Z');
    expect(renderClock('since {{clock:end-20m}}, before {{clock:start+35m}}', end)).toBe('since 12:47, before 12:42');
  });

  it('tallies the share fully answered', () => {
    expect(tally(['full', 'full', 'partial', 'wrong'])).toEqual({ total: 4, full: 2, partial: 1, wrong: 1, fullShare: 0.5 });
  });
});

describe('question files', () => {
  it('refuses a malformed file with the field named', () => {
    expect(() => parseQuestionFile('x.json', '{"scenario": "healthy", "questions": [{"id": "1", "q": "status?", "kind": "vague", "expect": {"verdict": "maybe"}}]}')).toThrow(/questions\.0\.expect\.verdict/);
    expect(() => parseQuestionFile('x.json', '{"scenario": "healthy", "questions": [{"id": "1", "q": "x", "kind": "vague", "expect": {"firstLine": "("}}]}')).toThrow(/not a valid regular expression/);
    expect(() => parseQuestionFile('x.json', 'not json')).toThrow(/x\.json is not JSON/);
  });
});
