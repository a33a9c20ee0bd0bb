import { describe, expect, it } from 'vitest';
import { attribute } from '../../../src/colony/unified/attribution.js';
import { type SummaryInput, compareServices, standOut } from '../../../src/colony/unified/summary.js';
import { spanViews } from '../../../src/colony/unified/operations.js';
import { FROM, MIN, PREV_FROM, health, input, minutes, op, times } from './summary-input.js';
import type { TopologyEdge } from '../../../src/colony/store/queries/topology.js';

const edge = (from: string, to: string, calls: number, errors: number): TopologyEdge => ({ from, to, kind: 'service', protocol: 'grpc', calls, errors, sources: ['otlp'] });

function rank(i: SummaryInput, edgesNow: TopologyEdge[] = [], edgesPrev: TopologyEdge[] = []) {
  return standOut(attribute(compareServices(i), { timesNow: i.timesNow, timesPrev: i.timesPrev, edgesNow, edgesPrev }));
}

describe('the summary on hand-made incidents', () => {
  it('a healthy hour: nothing stands out, not even a deploy or a handful of slow spans', () => {
    const same = [...op('rider-api', 'GET /rides', 40, 900), ...op('trip-service', 'GET /trips/{id}', 10, 900), ...op('trip-service', 'GET /rare', 3, 4)];
    const now = [...op('rider-api', 'GET /rides', 40, 950), ...op('trip-service', 'GET /trips/{id}', 10, 950), ...op('trip-service', 'GET /rare', 900, 4)];
    const top = rank(input({
      health: [health('rider-api'), health('trip-service')],
      opsPrev: spanViews(same), opsNow: spanViews(now),
      events: [{ timeNs: FROM + 5n * MIN, serviceName: 'trip-service', kind: 'deploy', title: 'trip-service 4.12.1' }],
    }));
    expect(top).toEqual([]);
  });

  it('an operation regression after a deploy: the callee ranks first, cites the deploy, and the caller says where its time went', () => {
    const prev = [...op('rider-api', 'GET /rides', 40, 900), ...op('trip-service', 'GET /trips/{id}', 10, 900), ...op('trip-service', 'POST /trips/{id}/complete', 400, 200)];
    const now = [...op('rider-api', 'GET /rides', 80, 900), ...op('trip-service', 'GET /trips/{id}', 75, 900), ...op('trip-service', 'POST /trips/{id}/complete', 400, 200)];
    const top = rank(input({
      health: [health('rider-api'), health('trip-service')],
      opsPrev: spanViews(prev), opsNow: spanViews(now),
      timesPrev: [times('rider-api', 200, 40, ['trip-service', 10]), times('trip-service', 200, 10)],
      timesNow: [times('rider-api', 200, 80, ['trip-service', 48]), times('trip-service', 200, 48)],
      minutes: [...minutes('trip-service', 42, 'latency'), ...minutes('rider-api', 42, 'latency')],
      events: [{ timeNs: PREV_FROM + 40n * MIN, serviceName: 'trip-service', kind: 'deploy', title: 'trip-service 4.12.0 rolled out' }],
    }));
    expect(top.map((c) => c.service)).toEqual(['trip-service', 'rider-api']);
    expect(top[0].signals.join('; ')).toMatch(/GET \/trips\/\{id\} P95 .* -> /);
    expect(top[0].signals.join('; ')).toMatch(/started ~\d\d:\d\d, 2 min after deploy: trip-service 4\.12\.0 rolled out/);
    expect(top[0].trigger).toMatch(/^deploy at /);
    expect(top[1].explainedBy).toBe('trip-service');
    expect(top[1].signals.join('; ')).toMatch(/\d+% of its added latency .* is spent waiting on trip-service/);
  });

  it('status reads traffic too: a service whose traffic fell by half or more is not healthy; one whose traffic rose is', () => {
    const prev = [...op('fell', 'GET /b', 10, 900), ...op('rose', 'GET /c', 10, 300)];
    const now = [...op('fell', 'GET /b', 10, 200), ...op('rose', 'GET /c', 10, 900)];
    const status = new Map(compareServices(input({
      health: [health('fell'), health('rose')], opsPrev: spanViews(prev), opsNow: spanViews(now),
    })).map((c) => [c.service, c.status]));
    expect(Object.fromEntries(status)).toEqual({ fell: 'degraded', rose: 'healthy' });
  });

  it('a chronic callee does not absorb the blame for a caller\'s new failures', () => {
    const top = rank(input({
      health: [health('checkout'), health('cart')],
      opsPrev: spanViews([...op('checkout', 'PlaceOrder', 30, 1000), ...op('cart', 'EmptyCart', 2, 1000, 50)]),
      opsNow: spanViews([...op('checkout', 'PlaceOrder', 30, 1000, 150), ...op('cart', 'EmptyCart', 2, 1000, 58)]),
      minutes: minutes('checkout', 40, 'errors'),
    }), [edge('checkout', 'cart', 1000, 58)], [edge('checkout', 'cart', 1000, 50)]);
    expect(top.map((c) => c.service)).toEqual(['checkout']);
    expect(top[0].explainedBy).toBeNull();
    const all = attribute(compareServices(input({
      health: [health('checkout'), health('cart')],
      opsPrev: spanViews([...op('checkout', 'PlaceOrder', 30, 1000), ...op('cart', 'EmptyCart', 2, 1000, 50)]),
      opsNow: spanViews([...op('checkout', 'PlaceOrder', 30, 1000, 150), ...op('cart', 'EmptyCart', 2, 1000, 58)]),
    })), { timesNow: [], timesPrev: [], edgesNow: [edge('checkout', 'cart', 1000, 58)], edgesPrev: [edge('checkout', 'cart', 1000, 50)] });
    expect(all.find((c) => c.service === 'cart')).toMatchObject({ chronic: true });
    expect(all.find((c) => c.service === 'checkout')?.signals.join('; ')).toMatch(/calls to cart fail about as before \(chronic there\)/);
  });

  it('a slow callee with no errors of its own takes the blame for its callers\' timeouts', () => {
    const top = rank(input({
      health: [health('checkout'), health('currency')],
      opsPrev: spanViews([...op('checkout', 'PlaceOrder', 30, 1000), ...op('currency', 'Convert', 1, 1000)]),
      opsNow: spanViews([...op('checkout', 'PlaceOrder', 250, 1000, 150), ...op('currency', 'Convert', 150, 1000)]),
      timesPrev: [times('checkout', 200, 30, ['currency', 1]), times('currency', 200, 1)],
      timesNow: [times('checkout', 200, 250, ['currency', 200, 30]), times('currency', 200, 150)],
    }), [edge('checkout', 'currency', 1000, 150)], [edge('checkout', 'currency', 1000, 0)]);
    expect(top.map((c) => c.service)).toEqual(['currency', 'checkout']);
    expect(top[1].signals.join('; ')).toMatch(/its new failures are calls to currency it gave up waiting on/);
    expect(top[0].signals.join('; ')).toMatch(/checkout times out waiting on it/);
    expect(top[0].signals.join('; ')).toMatch(/own time per request/);
  });
});
