import { describe, expect, it } from 'vitest';
import { type RedAnswers, type RedAsked, RedBatcher } from '../../../src/colony/store/clickhouse/batch.js';
import type { Protocol, RedRow } from '../../../src/colony/store/queries/red.js';

const range = { fromNs: 0n, toNs: 10n };
const row = (protocol: Protocol, requests: number) => ({ protocol, requests }) as RedRow;
const answers = (asked: RedAsked): RedAnswers => ({
  spans: new Map(asked.spans.map((p, i) => [p, [row(p, i)]])),
  histograms: new Map(asked.histograms.map((p, i) => [p, [row(p, 100 + i)]])),
});

describe('RedBatcher', () => {
  it('answers the protocols and sources asked in one tick with one run, each caller its own rows', async () => {
    const runs: { service: string; asked: RedAsked }[] = [];
    const b = new RedBatcher(async (q, asked) => {
      runs.push({ service: q.service, asked: { spans: [...asked.spans], histograms: [...asked.histograms] } });
      return answers(asked);
    });
    const [http, grpc, sql, histHttp, other] = await Promise.all([
      b.ask('spans', { service: 'a', protocol: 'http', range }),
      b.ask('spans', { service: 'a', protocol: 'grpc', range }),
      b.ask('spans', { service: 'a', protocol: 'sql', range }),
      b.ask('histograms', { service: 'a', protocol: 'http', range }),
      b.ask('spans', { service: 'b', protocol: 'http', range }),
    ]);
    expect(runs).toEqual([
      { service: 'a', asked: { spans: ['http', 'grpc', 'sql'], histograms: ['http'] } },
      { service: 'b', asked: { spans: ['http'], histograms: [] } },
    ]);
    expect([http, grpc, sql, histHttp, other]).toEqual([[row('http', 0)], [row('grpc', 1)], [row('sql', 2)], [row('http', 100)], [row('http', 0)]]);
  });

  it('keeps different filters and later ticks apart, and passes failures to every caller', async () => {
    let runs = 0;
    const b = new RedBatcher(async (q, asked) => {
      runs++;
      if (q.httpRoute === '/boom') throw new Error('boom');
      return answers(asked);
    });
    await Promise.all([b.ask('spans', { service: 'a', protocol: 'http', range }), b.ask('histograms', { service: 'a', protocol: 'http', range, httpRoute: '/x' })]);
    await b.ask('spans', { service: 'a', protocol: 'http', range });
    expect(runs).toBe(3);
    const failing = [b.ask('spans', { service: 'a', protocol: 'http', range, httpRoute: '/boom' }), b.ask('histograms', { service: 'a', protocol: 'http', range, httpRoute: '/boom' })];
    for (const f of failing) await expect(f).rejects.toThrow('boom');
  });
});
