import { describe, expect, it } from 'vitest';
import { ProtocolBatcher } from '../../../src/colony/store/clickhouse/batch.js';
import type { Protocol, RedRow } from '../../../src/colony/store/queries/red.js';

const range = { fromNs: 0n, toNs: 10n };
const row = (protocol: Protocol, requests: number) => ({ protocol, requests }) as RedRow;

describe('ProtocolBatcher', () => {
  it('answers the protocols asked in one tick with one run, each caller its own rows', async () => {
    const runs: { service: string; protocols: Protocol[] }[] = [];
    const b = new ProtocolBatcher(async (q, protocols) => {
      runs.push({ service: q.service, protocols: [...protocols] });
      return new Map(protocols.map((p, i) => [p, [row(p, i)]]));
    });
    const [http, grpc, sql, other] = await Promise.all([
      b.ask({ service: 'a', protocol: 'http', range }),
      b.ask({ service: 'a', protocol: 'grpc', range }),
      b.ask({ service: 'a', protocol: 'sql', range }),
      b.ask({ service: 'b', protocol: 'http', range }),
    ]);
    expect(runs).toEqual([{ service: 'a', protocols: ['http', 'grpc', 'sql'] }, { service: 'b', protocols: ['http'] }]);
    expect([http, grpc, sql, other]).toEqual([[row('http', 0)], [row('grpc', 1)], [row('sql', 2)], [row('http', 0)]]);
  });

  it('keeps different filters and later ticks apart, and passes failures to every caller', async () => {
    let runs = 0;
    const b = new ProtocolBatcher(async (q) => {
      runs++;
      if (q.httpRoute === '/boom') throw new Error('boom');
      return new Map();
    });
    await Promise.all([b.ask({ service: 'a', protocol: 'http', range }), b.ask({ service: 'a', protocol: 'http', range, httpRoute: '/x' })]);
    await b.ask({ service: 'a', protocol: 'http', range });
    expect(runs).toBe(3);
    await expect(b.ask({ service: 'a', protocol: 'http', range, httpRoute: '/boom' })).rejects.toThrow('boom');
  });
});
