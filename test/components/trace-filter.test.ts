import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../components/trace/filter.js';
import { traceMatches } from '../../components/trace/list-view.js';
import { span, traceOf } from './key-press.js';

const CART = traceOf([span('r', [span('c', [], { service: 'cart', name: 'GET /api/cart', attributes: { 'http.route': '/api/cart', 'http.status_code': 503 }, error: true })], { service: 'frontend' })], { durationMs: 750 });
const FAST = traceOf([span('r', [], { service: 'checkout', name: 'POST /checkout', attributes: { 'http.route': '/checkout' } })], { traceId: 'ab'.repeat(16), durationMs: 40 });

describe('the trace list filter', () => {
  it.each([
    ['service:cart', true, false],
    ['svc:CHECK', false, true],
    ['op:/api/cart', true, false],
    ['status:error', true, false],
    ['status:ok', false, true],
    ['dur>500ms', true, false],
    ['dur<100', false, true],
    ['duration>=1s', false, false],
    ['http.route:/api/cart', true, false],
    ['http.status_code:503', true, false],
    ['service:cart dur>500ms http.route:/api/cart', true, false],
    ['service:cart status:ok', false, false],
    ['checkout', false, true],
    ['abab', false, true],
    ['dur>fast', false, false],
    ['', true, true],
  ])('%s: cart trace %s, checkout trace %s', (filter, cart, fast) => {
    expect([traceMatches(CART, filter), traceMatches(FAST, filter)]).toEqual([cart, fast]);
  });

  it('parses the terms, a duration with a unit or bare milliseconds; what does not parse is a word', () => {
    expect(parseFilter('service:cart dur>1.5s dur<=20 x:y free dur>fast')).toEqual([
      { kind: 'service', text: 'cart' }, { kind: 'duration', op: '>', ms: 1500 }, { kind: 'duration', op: '<=', ms: 20 },
      { kind: 'attribute', key: 'x', text: 'y' }, { kind: 'word', text: 'free' }, { kind: 'word', text: 'dur>fast' },
    ]);
  });
});
