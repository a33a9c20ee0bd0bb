import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { ColumnIndex } from '../../src/honeycomb/column-index.js';
import { NameTable } from '../../src/honeycomb/name-table.js';
import { BELOW_PAGE, scoreNames } from '../../src/honeycomb/name-scorer.js';
import { tokenOverlap } from '../../src/honeycomb/search.js';
import { MIN_SCORE, columnScore } from '../../src/honeycomb/similarity.js';

// Names built from few parts, so they repeat, share prefixes and differ only in case, as real schemas do.
const PARTS = ['http', 'HTTP', 'db', 'status', 'code', 'latency', 'duration_ms', 'x-request-id', 'k8s', 'pod', 'name', 'a', 'aa', 'é', '😀', 'p99', 'memory', 'error'];
const SEPARATORS = ['.', '_', '-', '', ' '];

function randomName(rng: Random): string {
  if (rng.chance(0.02)) return 'a'.repeat(rng.int(195, 230)) + rng.pick(PARTS); // autojunk territory
  const parts = Array.from({ length: rng.int(1, 5) }, () => rng.pick(PARTS));
  return parts.map((p, i) => (i === 0 ? p : rng.pick(SEPARATORS) + p)).join('');
}

function randomQuery(rng: Random, names: string[]): string {
  const r = rng.next();
  if (r < 0.3) {
    const name = rng.pick(names);
    const from = rng.int(0, name.length);
    return name.slice(from, from + rng.int(0, 20));
  }
  if (r < 0.6) {
    // A near miss: a name with a character dropped, doubled or swapped.
    const chars = Array.from(rng.pick(names)).slice(0, rng.int(1, 24));
    const at = rng.int(0, chars.length - 1);
    if (rng.chance(0.5)) chars.splice(at, 1);
    else chars.splice(at, 0, rng.pick(['x', 'e', '.', chars[at] ?? 'q']));
    return chars.join('');
  }
  if (r < 0.7) return Array.from({ length: rng.int(33, 45) }, () => rng.pick(['a', 'b', '.', 'http', 'status'])).join('');
  if (r < 0.75) return '';
  return Array.from({ length: rng.int(1, 20) }, () => rng.pick([...'abcdehilmnoprstuxy._-😀é'])).join('');
}

/** The specification, written plainly: score every candidate, keep > 0.3, stable sort, slice. */
function straightforward(names: string[], query: string, offset: number, limit: number, tokens: boolean) {
  const scored = names.map((name, index) => ({ name, index, score: columnScore(query, name) })).filter((s) => s.score > MIN_SCORE);
  scored.sort((a, b) => b.score - a.score || (tokens ? tokenOverlap(query, b.name) - tokenOverlap(query, a.name) : 0) || a.index - b.index);
  return { total: scored.length, page: scored.slice(offset, offset + limit), matched: new Set(scored.map((s) => s.name)) };
}

describe('the fast column search gives exactly the straightforward results', () => {
  it('scores every distinct name as columnScore does (all exact when no page is given)', () => {
    const rng = new Random(16);
    for (let round = 0; round < 12; round++) {
      const names = [...new Set(Array.from({ length: 300 }, () => randomName(rng).toLowerCase()))];
      const table = new NameTable(names);
      for (let k = 0; k < 10; k++) {
        const query = randomQuery(rng, names).toLowerCase();
        const { ids, scores, count } = scoreNames(table, query);
        const got = new Map<string, number>();
        for (let i = 0; i < count; i++) got.set(table.names[ids[i]], scores[i]);
        for (const name of names) {
          const want = columnScore(query, name);
          expect(got.get(name), `${JSON.stringify(query)} / ${JSON.stringify(name)}`).toBe(want > MIN_SCORE ? want : undefined);
        }
      }
    }
  });

  it('handles query characters no name holds: a whole character rules out substrings, a lone surrogate does not', () => {
    const names = ['cpu.util', 'cpu_utilization', 'x😀y', '😀', 'cpu util'.replace(' ', '-')];
    const table = new NameTable(names);
    for (const query of ['cpu util', 'cpu utilx', '\ud83d', 'x\ud83d', '\ude00y', 'q', 'cpu.utiq']) {
      const { ids, scores, count } = scoreNames(table, query);
      const got = new Map<string, number>();
      for (let i = 0; i < count; i++) got.set(table.names[ids[i]], scores[i]);
      for (const name of names) {
        const want = columnScore(query, name);
        expect(got.get(name), `${JSON.stringify(query)} / ${name}`).toBe(want > MIN_SCORE ? want : undefined);
      }
    }
    // A lone high surrogate is found inside the pair it starts, as Python-on-UTF-16 and the plain port find it.
    expect(columnScore('x\ud83d', 'x😀y')).toBe(0.9);
  });

  it('ranks pages, totals and matched names like the plain sort, for random offsets, limits and both tie-breaks', () => {
    const rng = new Random(1616);
    let belowPage = 0;
    for (let round = 0; round < 25; round++) {
      const names = Array.from({ length: rng.int(1, 600) }, () => randomName(rng));
      const index = new ColumnIndex(names);
      for (let k = 0; k < 12; k++) {
        const query = randomQuery(rng, names);
        const offset = rng.chance(0.6) ? 0 : rng.int(0, 300);
        const limit = rng.int(1, rng.chance(0.5) ? 10 : 200);
        const tokens = rng.chance(0.3);
        const want = straightforward(names, query, offset, limit, tokens);
        const got = index.rank(query.toLowerCase(), offset, limit, tokens ? (name) => tokenOverlap(query, name) : undefined);
        const label = `${JSON.stringify(query)} offset ${offset} limit ${limit}${tokens ? ' tokens' : ''}`;
        expect(got.total, label).toBe(want.total);
        expect(got.indexes, label).toEqual(want.page.map((s) => s.index));
        expect(got.scores, label).toEqual(want.page.map((s) => s.score));
        const matchedNames = names.filter((name) => got.matched[index.nameId(name) as number] === 1);
        expect(new Set(matchedNames), label).toEqual(want.matched);
        const scored = scoreNames(index.table, query.toLowerCase(), offset + limit);
        for (let i = 0; i < scored.count; i++) if (scored.scores[i] === BELOW_PAGE) belowPage++;
      }
    }
    // The page-aware shortcut must actually have been exercised.
    expect(belowPage).toBeGreaterThan(100);
  });
});
