import { describe, expect, it } from 'vitest';
import { entities, stated } from '../../../src/agent/understand/entities.js';

const SERVICES = ['frontend-proxy', 'frontend', 'ad', 'cart', 'checkout', 'currency', 'payment', 'product-catalog', 'recommendation', 'shipping', 'quote', 'email', 'fraud-detection', 'image-provider'];
const names = (q: string) => entities(q, SERVICES).services.map((s) => s.name);

describe('entities', () => {
  it('finds services however they are typed, in question order', () => {
    expect(names('whats up with curency')).toEqual(['currency']);
    expect(names('fronted latency p95')).toEqual(['frontend']);
    expect(names('error rate of paymnet?')).toEqual(['payment']);
    expect(names('is the product catalog ok and the frontend proxy?')).toEqual(['product-catalog', 'frontend-proxy']);
    expect(names('catalog errors')).toEqual(['product-catalog']);
    expect(names('why are checkouts failing')).toEqual(['checkout']);
    expect(names('what is currently wrong with the shopping cart')).toEqual(['cart']);
    // Older names with their kind run on, and short forms well short of the name.
    expect(names('currencyservice slow?')).toEqual(['currency']);
    expect(names('recs slow?')).toEqual(['recommendation']);
    // A word that starts a name but is most of it is a word, not the name ("check" is not checkout).
    expect(names('check the logs')).toEqual([]);
  });

  it('reads the name before a kind word at the end of a question, and idioms as no name', () => {
    expect(entities('whats the error rate on the billing api', SERVICES).absent).toEqual(['billing']);
    expect(entities('anything on fire?', SERVICES).absent).toEqual([]);
  });

  it('states a fuzzy match with what was typed', () => {
    expect(stated(entities('whats up with curency', SERVICES).services[0])).toBe('currency (you typed curency)');
    expect(stated(entities('is currency ok', SERVICES).services[0])).toBe('currency');
  });

  it('names what matches nothing here, and infrastructure by its kind', () => {
    expect(entities('is the billing service down?', SERVICES)).toMatchObject({ services: [], absent: ['billing'] });
    expect(entities('error rate of inventory?', SERVICES).absent).toEqual(['inventory']);
    expect(entities('is the kafka consumer lagging?', SERVICES)).toMatchObject({ absent: [], infra: [{ word: 'kafka', kind: 'messaging' }, { word: 'consumer', kind: 'messaging' }] });
    expect(entities('is redis saturated?', SERVICES).infra).toEqual([{ word: 'redis', kind: 'cache' }]);
    expect(entities('is payment down?', SERVICES).absent).toEqual([]);
  });

  it('reads a route with its method', () => {
    expect(entities('what is the latency of GET /api/cart?', SERVICES).route).toEqual({ method: 'GET', path: '/api/cart' });
    expect(entities('p95 of /api/checkout', SERVICES).route).toEqual({ method: null, path: '/api/checkout' });
    expect(entities('is cart ok', SERVICES).route).toBeNull();
    expect(entities('roll back the payment release y/n', SERVICES).route).toBeNull();
    // An operation named as code is not an absent service.
    expect(entities('GetProduct error rate over the last 15 min', SERVICES)).toMatchObject({ operation: 'GetProduct', absent: [] });
  });

  it('an exact service name wins over the words that are never names', () => {
    expect(entities('is the api up?', ['api', 'web']).services.map((s) => s.name)).toEqual(['api']);
  });
});

describe('entities: names of several words', () => {
  it('takes the name out of a phrase and leaves the generic words', () => {
    expect(entities('is the paypal api slow?', SERVICES).absent).toEqual(['paypal']);
    expect(entities('is the ml feature store slow?', SERVICES).absent).toEqual(['ml feature store']);
    expect(entities('is the cassandra cluster slow?', SERVICES)).toMatchObject({ absent: [], infra: [{ word: 'cassandra', kind: 'database' }] });
    expect(entities('is the rabbitmq queue backing up?', SERVICES).infra.map((i) => i.word)).toEqual(['rabbitmq', 'queue']);
    expect(entities('is the payment api slow?', SERVICES)).toMatchObject({ absent: [], services: [{ name: 'payment' }] });
  });
});
