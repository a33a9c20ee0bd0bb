import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { BlockMatcher, EXACT } from '../../src/honeycomb/block-matcher.js';
import { NameTable } from '../../src/honeycomb/name-table.js';
import { SequenceMatcher } from '../../src/honeycomb/similarity.js';

// A tiny alphabet makes many equal-length candidate blocks (difflib's tie-break decides the total)
// and sorted names share long prefixes (the first block search resumes across them).
const ALPHABET = ['a', 'b', '.', 'é', '😀'];

function randomText(rng: Random, min: number, max: number): string {
  return Array.from({ length: rng.int(min, max) }, () => rng.pick(ALPHABET)).join('');
}

function symbolsOf(table: NameTable, query: string): Int32Array {
  return Int32Array.from(Array.from(query), (ch) => table.symbolOf.get(ch.codePointAt(0) as number) ?? -1);
}

const difflibMatches = (a: string, b: string) => new SequenceMatcher(a, b).matches();

describe('BlockMatcher totals equal difflib matching blocks', () => {
  it('for every name in order, resuming the first block search after shared prefixes', () => {
    const rng = new Random(416);
    for (let round = 0; round < 40; round++) {
      const stems = Array.from({ length: 6 }, () => randomText(rng, 0, 30));
      const names = [...new Set(Array.from({ length: 120 }, () => rng.pick(stems) + randomText(rng, 0, 40)))];
      const table = new NameTable(names);
      // Past 32 characters the query's position sets take more than one word.
      const query = rng.chance(0.1) ? `${randomText(rng, 1, 6)}x` : rng.chance(0.25) ? randomText(rng, 30, 70) : randomText(rng, 1, 14);
      const matcher = new BlockMatcher(table, symbolsOf(table, query), table.maxLength);
      for (let id = 0; id < table.size; id++) {
        const shared = id === 0 ? 0 : table.sharedPrefix[id];
        expect(matcher.matches(id, EXACT, shared), `${query} / ${table.names[id]}`).toBe(difflibMatches(query, table.names[id]));
      }
    }
  });

  it('answers "at least need?" rightly when names are skipped and the shared prefix is the minimum over the gap', () => {
    const rng = new Random(1604);
    let answers = 0;
    for (let round = 0; round < 40; round++) {
      const stems = Array.from({ length: 4 }, () => randomText(rng, 2, 14));
      const names = [...new Set(Array.from({ length: 150 }, () => rng.pick(stems) + randomText(rng, 0, 8)))];
      const table = new NameTable(names);
      const query = randomText(rng, 1, 16);
      const matcher = new BlockMatcher(table, symbolsOf(table, query), table.maxLength);
      let shared = 0;
      for (let id = 0; id < table.size; id++) {
        if (id > 0) shared = Math.min(shared, table.sharedPrefix[id]);
        if (rng.chance(0.4)) continue;
        const want = difflibMatches(query, table.names[id]);
        const need = rng.int(1, Math.max(1, want + 2));
        const got = matcher.matches(id, need, shared);
        expect(got >= need, `${query} / ${table.names[id]} need ${need}`).toBe(want >= need);
        shared = table.lengths[id];
        answers++;
      }
    }
    expect(answers).toBeGreaterThan(1000);
  });
});
