import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from '../../src/core/closest.js';

describe('editDistance', () => {
  it('counts insertions, deletions and replacements, case ignored', () => {
    expect(editDistance('checkout', 'checkout')).toBe(0);
    expect(editDistance('Checkout', 'checkout')).toBe(0);
    expect(editDistance('chekout', 'checkout')).toBe(1);
    expect(editDistance('checkuot', 'checkout')).toBe(2);
    expect(editDistance('', 'cart')).toBe(4);
    expect(editDistance('cart', '')).toBe(4);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('with swaps, counts a swap of neighbours as one edit (the typo matcher\'s distance)', () => {
    expect(editDistance('paymnet', 'payment', { swaps: true })).toBe(1);
    expect(editDistance('checkuot', 'checkout', { swaps: true })).toBe(1);
    expect(editDistance('curency', 'currency', { swaps: true })).toBe(1);
    expect(editDistance('abc', 'abc', { swaps: true })).toBe(0);
    expect(editDistance('', 'abc', { swaps: true })).toBe(3);
    expect(editDistance('ca', 'abc', { swaps: true })).toBe(3);
  });
});

describe('closestNames', () => {
  const known = ['ad', 'cart', 'checkout', 'currency', 'frontend', 'frontend-proxy', 'payment', 'product-catalog'];
  it('puts a typo\'s service first', () => {
    expect(closestNames('chekout', known)[0]).toBe('checkout');
    expect(closestNames('paymnt', known)[0]).toBe('payment');
  });

  it('prefers names that contain the asked text, or that it contains, over merely close ones', () => {
    expect(closestNames('catalog', known)[0]).toBe('product-catalog');
    expect(closestNames('frontend-proxy-v2', known).slice(0, 2)).toEqual(['frontend-proxy', 'frontend']);
  });

  it('keeps every name, ties in name order, and leaves its input alone', () => {
    const input = [...known];
    const out = closestNames('zz', input);
    expect([...out].sort()).toEqual([...known].sort());
    expect(input).toEqual(known);
    expect(closestNames('xx', ['b', 'a'])).toEqual(['a', 'b']);
  });
});
