import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoneycombClient } from '../../src/honeycomb/api.js';
import type { FakeEnvironment } from '../../src/honeycomb/fake/types.js';
import { type FakeHoneycomb, startFakeHoneycomb } from '../../src/honeycomb/fake/server.js';
import { type SearchColumnsResponse, searchColumns, tokenOverlap } from '../../src/honeycomb/search.js';

/**
 * What each search result carries and where it comes from: the fields of regular and derived
 * columns, environment-wide columns listed once, related derived columns, the defaults, failures,
 * and the prepared schema reused only for the same datasets.
 */
// A description left undefined is left out of the fake's JSON, as the API leaves it out.
const col = (key_name: string, extra: Partial<{ type: 'string' | 'float' | 'integer' | 'boolean'; description: string | undefined; lastWrittenAgoSec: number | null }> = {}) =>
  ({ key_name, type: 'string' as const, description: '', lastWrittenAgoSec: 7_200, ...extra }) as { key_name: string; type: 'string' | 'float' | 'integer' | 'boolean'; description: string; lastWrittenAgoSec: number | null };
const ds = (slug: string, columns: ReturnType<typeof col>[], derived: FakeEnvironment['environmentDerived'] = []) => ({ slug, name: slug, description: '', lastWrittenAgoSec: 60, columns, derived });

const ENV: FakeEnvironment = {
  environment: { name: 'results', slug: 'results' },
  team: { name: 'Results', slug: 'results' },
  datasets: [
    ds('one', [col('latency_ms', { type: 'float', description: 'Request latency', lastWrittenAgoSec: 7_200 }), col('region', { lastWrittenAgoSec: null })], [
      { alias: 'latency_slow', expression: 'GT($latency_ms, 100)', description: 'slow requests' },
      { alias: 'shared_env', expression: 'INT($latency_ms)', description: 'listed here and environment-wide' },
    ]),
    ds('two', [col('latency_ms', { type: 'integer' }), col('undescribed', { description: undefined })], [
      { alias: 'latency_slow', expression: 'GT($latency_ms, 500)', description: '' },
      { alias: 'undescribed_dc', expression: 'INT($undescribed)', description: undefined as unknown as string },
    ]),
    ds('many', Array.from({ length: 60 }, (_, i) => col(`zz_${String(i).padStart(2, '0')}`)), Array.from({ length: 30 }, (_, i) => ({ alias: `uses_${i}`, expression: `INT($zz_00)`, description: '' }))),
  ],
  environmentDerived: [{ alias: 'shared_env', expression: 'INT($latency_ms)', description: 'environment-wide' }],
};

let fake: FakeHoneycomb;
const client = () => new HoneycombClient({ apiKey: 'k', baseUrl: fake.url, maxAttempts: 1 });
beforeAll(async () => {
  fake = await startFakeHoneycomb({ env: ENV, apiKey: 'k' });
});
afterAll(async () => fake.close());

const names = (r: SearchColumnsResponse['results']) => r.map((c) => `${c.dataset}/${c.column}`);

describe('the fields of a result', () => {
  it('a regular column: its type, description, age, and no expression', async () => {
    const r = await searchColumns(client(), { query: 'latency_ms', dataset: 'one', now: Date.now() + 5_000 });
    expect(r.results[0]).toEqual({ column: 'latency_ms', dataset: 'one', type: 'float', description: 'Request latency', similarity: 1, last_written: '2 hours ago', is_derived: false, derived_expression: null });
    const region = await searchColumns(client(), { query: 'region', dataset: 'one' });
    expect(region.results[0]).toMatchObject({ column: 'region', last_written: null, description: '' });
  });

  it('a derived column: the type its expression gives, its expression, no age', async () => {
    const r = await searchColumns(client(), { query: 'latency_slow', dataset: 'one' });
    expect(r.results[0]).toEqual({ column: 'latency_slow', dataset: 'one', type: 'boolean', description: 'slow requests', similarity: 1, last_written: null, is_derived: true, derived_expression: 'GT($latency_ms, 100)' });
  });

  it('a column or derived column without a description has an empty one', async () => {
    const r = await searchColumns(client(), { query: 'undescribed', dataset: 'two' });
    expect(r.results.map((c) => [c.column, c.description])).toEqual([['undescribed', ''], ['undescribed_dc', '']]);
  });

  it('an environment-wide column also listed per dataset is reported once, as environment-wide', async () => {
    const r = await searchColumns(client(), { query: 'shared_env' });
    expect(r.results.filter((c) => c.column === 'shared_env').map((c) => [c.dataset, c.description, c.type])).toEqual([['__environment__', 'environment-wide', 'integer']]);
  });
});

describe('query and defaults', () => {
  it('the query is matched case-insensitively', async () => {
    const lower = await searchColumns(client(), { query: 'latency_ms' });
    const upper = await searchColumns(client(), { query: 'LATENCY_MS' });
    expect(names(upper.results)).toEqual(names(lower.results));
    expect(upper.results[0].similarity).toBe(1);
  });

  it('without a limit a page holds 50 results, from the first', async () => {
    const r = await searchColumns(client(), { query: 'zz_', dataset: 'many' });
    expect(r.results).toHaveLength(50);
    expect(r.results[0].column).toBe('zz_00');
    expect([r.total_matches, r.has_more]).toEqual([60, true]);
  });
});

describe('related derived columns', () => {
  it('lists the derived columns built on a matched column, with similarity 0, but none already on the page', async () => {
    // "latency" matches latency_ms in one and two, and the latency_slow columns themselves; one's is on the page.
    const r = await searchColumns(client(), { query: 'latency', limit: 3 });
    expect(names(r.results)).toEqual(['one/latency_ms', 'one/latency_slow', 'two/latency_ms']);
    expect(r.related_derived_columns.map((d) => [`${d.dataset}/${d.column}`, d.similarity])).toEqual([['two/latency_slow', 0], ['__environment__/shared_env', 0]]);
  });

  it('are derived columns on a matched column only: a query matching none gives none', async () => {
    const r = await searchColumns(client(), { query: 'region' });
    expect(r.related_derived_columns).toEqual([]);
  });

  it('lists at most 25, in schema order', async () => {
    const r = await searchColumns(client(), { query: 'zz_00', dataset: 'many', limit: 1 });
    expect(r.related_derived_columns.map((d) => d.column)).toEqual(Array.from({ length: 25 }, (_, i) => `uses_${i}`));
  });
});

describe('failures', () => {
  it('a failing dataset is reported and not counted as searched; the others are searched', async () => {
    fake.set({ failingDatasets: ['two'] });
    try {
      const r = await searchColumns(client(), { query: 'latency_ms' });
      expect(r.datasets_failed).toEqual([{ dataset: 'two', reason: expect.stringContaining('internal error reading dataset') }]);
      expect(r.datasets_searched).toBe(2);
      expect(names(r.results)).toEqual(['one/latency_ms', 'one/latency_slow']);
    } finally {
      fake.set({ failingDatasets: [] });
    }
  });

  it('environment-wide derived columns that fail are reported under __environment__, the datasets still searched', async () => {
    const c = client();
    const failing = Object.assign(Object.create(c) as HoneycombClient, {
      derivedColumns: (dataset?: string) => (dataset === undefined ? Promise.reject(new Error('env derived down')) : c.derivedColumns(dataset)),
    });
    const r = await searchColumns(failing, { query: 'shared_env' });
    expect(r.datasets_failed).toEqual([{ dataset: '__environment__', reason: 'env derived down' }]);
    expect(r.datasets_searched).toBe(3);
    // Without the environment-wide list, the dataset's own copy is reported.
    expect(names(r.results)).toEqual(['one/shared_env']);
  });
});

describe('the prepared schema', () => {
  it('is not reused for a different set of datasets that starts with the same one', async () => {
    const c = client();
    const first = await searchColumns(c, { query: 'latency_ms', dataset: 'one' });
    expect(names(first.results)).toEqual(['one/latency_ms', 'one/latency_slow']);
    const all = await searchColumns(c, { query: 'latency_ms' });
    expect(names(all.results)).toEqual(['one/latency_ms', 'two/latency_ms', 'one/latency_slow', 'two/latency_slow']);
    const again = await searchColumns(c, { query: 'latency_ms', dataset: 'one' });
    expect(names(again.results)).toEqual(['one/latency_ms', 'one/latency_slow']);
  });
});

describe('tokenOverlap', () => {
  it('splits names on dots, dashes, underscores, spaces and slashes', () => {
    expect(tokenOverlap('a b c d e f', 'a.b-c_d e/f')).toBe(6);
    expect(tokenOverlap('a-b', 'a--b')).toBe(2);
    expect(tokenOverlap('ab', 'a.b')).toBe(0);
  });

  it('counts each synonym of the table, one way only where the table says so', () => {
    const table: [string, string[]][] = [
      ['latency', ['duration', 'time', 'elapsed']],
      ['duration', ['latency', 'time', 'elapsed']],
      ['error', ['err', 'errors', 'exception', 'fail', 'failed']],
      ['errors', ['error', 'err']],
      ['memory', ['mem', 'rss', 'heap']],
      ['cpu', ['processor']],
      // The table's `status_code` can never equal a token (tokens are split at `_`): not listed here.
      ['status', ['code']],
      ['request', ['req', 'requests']],
    ];
    for (const [word, synonyms] of table) for (const s of synonyms) expect(tokenOverlap(word, `x.${s}`), `${word} ~ ${s}`).toBe(1);
    expect(tokenOverlap('errors', 'x.exception')).toBe(0);
    expect(tokenOverlap('time', 'x.latency')).toBe(0);
    expect(tokenOverlap('cpu', 'x.mem')).toBe(0);
  });
});
