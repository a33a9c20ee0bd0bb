import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoneycombClient } from '../../src/honeycomb/api.js';
import type { FakeEnvironment } from '../../src/honeycomb/fake/types.js';
import { type FakeHoneycomb, startFakeHoneycomb } from '../../src/honeycomb/fake/server.js';
import { type SearchColumnsResponse, searchColumns, tokenOverlap } from '../../src/honeycomb/search.js';
import { MIN_SCORE, SequenceMatcher, columnScore, matchScore } from '../../src/honeycomb/similarity.js';

/**
 * Edges of the column search that a plausible wrong implementation gets wrong: a score of exactly
 * MIN_SCORE (dropped), ties in score, pagination against a list written out by hand, and the token tie-break
 * on columns where it changes the order.
 */
const col = (key_name: string) => ({ key_name, type: 'string' as const, description: '', lastWrittenAgoSec: 60 });
const ds = (slug: string, columns: string[]) => ({ slug, name: slug, description: '', lastWrittenAgoSec: 60, columns: columns.map(col), derived: [] });

const ENV: FakeEnvironment = {
  environment: { name: 'edges', slug: 'edges' },
  team: { name: 'Edges', slug: 'edges' },
  datasets: [
    ds('alpha', ['dur_a', 'dur_b', 'xdurx']),
    ds('beta', ['dur_c', 'dur']),
    ds('gamma', ['xlatency.foo', 'xlatency.elapsed', 'http.latency', 'latencyz']),
    ds('delta', ['axbxcxxxxx', 'axbxcxxxxxx', 'axbxcxxxxxxx']),
  ],
  environmentDerived: [{ alias: 'dur_env', expression: 'INT($dur)', description: '' }],
};

let fake: FakeHoneycomb;
let client: HoneycombClient;
beforeAll(async () => {
  fake = await startFakeHoneycomb({ env: ENV, apiKey: 'k' });
  client = new HoneycombClient({ apiKey: 'k', baseUrl: fake.url });
});
afterAll(async () => fake.close());

const rows = (r: SearchColumnsResponse) => r.results.map((c) => `${c.dataset}/${c.column}=${c.similarity}`);

/** Every column scoring on "dur", in the specified order: score, then dataset order, then column order. */
const DUR = [
  'beta/dur=1',
  'alpha/dur_a=0.9',
  'alpha/dur_b=0.9',
  'beta/dur_c=0.9',
  '__environment__/dur_env=0.9',
  'alpha/xdurx=0.8',
];

describe('the MIN_SCORE threshold is exclusive, as the specification\'s `score > 0.3`', () => {
  it("'abc' vs 'axbxcxxxxxx' scores exactly 0.3 and is dropped; one character fewer is kept", async () => {
    expect(columnScore('abc', 'axbxcxxxxxx')).toBe(0.3);
    expect(matchScore('abc', 'axbxcxxxxxx')).toBeNull();
    expect(columnScore('abc', 'axbxcxxxxx')).toBeGreaterThan(MIN_SCORE);
    expect(matchScore('abc', 'axbxcxxxxx')).toBe((6 / 13) * 0.7);
    expect(matchScore('abc', 'axbxcxxxxxxx')).toBeNull();
    const r = await searchColumns(client, { query: 'abc', dataset: 'delta' });
    expect(rows(r)).toEqual([`delta/axbxcxxxxx=${(6 / 13) * 0.7}`]);
    expect(r.total_matches).toBe(1);
  });

  it('the spec\'s own near-threshold cases: lat9999 drops latency, route drops host.name (both exactly 0.3)', () => {
    expect(columnScore('lat9999', 'latency')).toBe(0.3);
    expect(matchScore('lat9999', 'latency')).toBeNull();
    expect(columnScore('route', 'host.name')).toBe(0.3);
    expect(matchScore('route', 'host.name')).toBeNull();
  });
});

describe('SequenceMatcher autojunk counts popularity strictly above n/100 + 1', () => {
  it('keeps a character occurring exactly n/100 + 1 times in a 200+ character name', () => {
    // n = 203, ntest = 3: "q" occurs 3 times (not popular, Python matches all three), "x" 200 times (popular).
    const name = `q${'x'.repeat(100)}q${'x'.repeat(100)}q`;
    // Python: SequenceMatcher(None, 'qqq', name).ratio() == 6 / 206
    expect(new SequenceMatcher('qqq', name).ratio()).toBe(6 / 206);
    expect(columnScore('qqq', name)).toBe((6 / 206) * 0.7);
    // n = 200, ntest = 3: "z" occurs 3 times and still seeds the match "zzz".
    expect(new SequenceMatcher('zzz', `zzz${'a'.repeat(197)}`).ratio()).toBe(6 / 203);
    // Four occurrences are popular: no match can start on "q". Python: 0.0
    expect(new SequenceMatcher('qqq', `xq${'x'.repeat(99)}q${'x'.repeat(100)}qq`).ratio()).toBe(0);
  });
});

describe('ordering of equal scores', () => {
  it('orders ties by dataset order, then column order, environment-wide derived columns last', async () => {
    const r = await searchColumns(client, { query: 'dur' });
    expect(rows(r)).toEqual(DUR);
    expect(r.datasets_searched).toBe(4);
  });

  it('paginates over that order: each page is the hand-written list sliced, total_matches counts every match', async () => {
    const pages = await Promise.all([0, 2, 4].map((offset) => searchColumns(client, { query: 'dur', limit: 2, offset })));
    expect(pages.map(rows)).toEqual([DUR.slice(0, 2), DUR.slice(2, 4), DUR.slice(4, 6)]);
    expect(pages.map((p) => p.total_matches)).toEqual([6, 6, 6]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    const beyond = await searchColumns(client, { query: 'dur', limit: 2, offset: 10 });
    expect(beyond.results).toEqual([]);
    expect(beyond.total_matches).toBe(6);
    expect(beyond.has_more).toBe(false);
  });
});

describe('token tie-break', () => {
  it('counts query tokens the column shares, directly or through a synonym', () => {
    expect(tokenOverlap('latency', 'http.latency')).toBe(1);
    expect(tokenOverlap('latency', 'xlatency.elapsed')).toBe(1);
    expect(tokenOverlap('latency', 'xlatency.foo')).toBe(0);
    expect(tokenOverlap('http request latency', 'http.req.duration_ms')).toBe(3);
    expect(tokenOverlap('http request latency', 'http.response.size')).toBe(1);
    expect(tokenOverlap('HTTP-Status', 'http/status_code')).toBe(2);
  });

  it('moves equal-score columns that share tokens ahead, and changes nothing else', async () => {
    const stable = await searchColumns(client, { query: 'latency', dataset: 'gamma' });
    const tokens = await searchColumns(client, { query: 'latency', dataset: 'gamma', tieBreak: 'tokens' });
    expect(rows(stable)).toEqual(['gamma/latencyz=0.9', 'gamma/xlatency.foo=0.8', 'gamma/xlatency.elapsed=0.8', 'gamma/http.latency=0.8']);
    // The higher score still comes first; within 0.8, the two columns sharing a token lead, in column order.
    expect(rows(tokens)).toEqual(['gamma/latencyz=0.9', 'gamma/xlatency.elapsed=0.8', 'gamma/http.latency=0.8', 'gamma/xlatency.foo=0.8']);
  });
});
