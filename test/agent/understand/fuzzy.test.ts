import { describe, expect, it } from 'vitest';
import { allowedEdits, matchName } from '../../../src/agent/understand/fuzzy.js';

const SERVICES = ['frontend-proxy', 'frontend', 'ad', 'cart', 'checkout', 'currency', 'payment', 'product-catalog', 'recommendation', 'shipping', 'quote', 'email'];

describe('matchName', () => {
  it('forgives typos, spacing, case and plurals, and says what was typed', () => {
    expect(matchName('curency', SERVICES)).toMatchObject({ name: 'currency', typed: 'curency', exact: false });
    expect(matchName('fronted', SERVICES)?.name).toBe('frontend');
    expect(matchName('paymnet', SERVICES)?.name).toBe('payment');
    expect(matchName('Product Catalog', SERVICES)).toMatchObject({ name: 'product-catalog', exact: true });
    expect(matchName('checkouts', SERVICES)).toMatchObject({ name: 'checkout', exact: true });
    expect(matchName('ads', SERVICES)).toMatchObject({ name: 'ad', exact: true });
    expect(matchName('recomendation', SERVICES)?.name).toBe('recommendation');
  });

  it('does not stretch a short or different word onto a name', () => {
    expect(allowedEdits(4)).toBe(0);
    expect(matchName('card', SERVICES)).toBeUndefined();
    expect(matchName('currently', SERVICES)).toBeUndefined();
    expect(matchName('billing', SERVICES)).toBeUndefined();
    // The first letter must agree: "vurrency" is no typo of currency.
    expect(matchName('vurrency', SERVICES)).toBeUndefined();
  });

  it('matches nothing when two names are equally close', () => {
    expect(matchName('cartx', ['carty', 'cartz'])).toBeUndefined();
  });
});
