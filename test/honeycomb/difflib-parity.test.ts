import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_SCORE, SequenceMatcher, columnScore, matchScore, queryCounts } from '../../src/honeycomb/similarity.js';

/**
 * 324 pairs scored by Python's difflib itself (the generator is named in the file): small alphabets
 * for many equal-length candidate blocks, 200+ character columns with a character just under, at and
 * over the autojunk threshold, non-ASCII and astral code points, and realistic column names.
 */
const fixture = JSON.parse(readFileSync(new URL('./fixtures/difflib-ratios.json', import.meta.url), 'utf8')) as { cases: [string, string, number, number][] };

describe('SequenceMatcher against Python difflib, to the last digit', () => {
  it('ratio() equals Python on every pair', () => {
    const wrong = fixture.cases.filter(([a, b, ratio]) => new SequenceMatcher(a, b).ratio() !== ratio);
    expect(wrong).toEqual([]);
  });

  it('gives the same ratio when the same matchers are reused in any order (the shared scratch arrays stay clean)', () => {
    const reversed = [...fixture.cases].reverse();
    const wrong = reversed.filter(([a, b, ratio]) => new SequenceMatcher(a, b).ratio() !== ratio);
    expect(wrong).toEqual([]);
  });

  it('upperBound equals Python quick_ratio() on every pair', () => {
    const wrong = fixture.cases.filter(([a, b, , quick]) => queryCounts(a).upperBound(b) !== quick);
    expect(wrong).toEqual([]);
  });

  it('one QueryCounts answers many columns without carrying counts from one to the next', () => {
    const byQuery = new Map<string, [string, number][]>();
    for (const [a, b, , quick] of fixture.cases) byQuery.set(a, [...(byQuery.get(a) ?? []), [b, quick]]);
    for (const [a, columns] of byQuery) {
      const counts = queryCounts(a);
      for (const [b, quick] of [...columns, ...columns]) expect(counts.upperBound(b), `${a} / ${b}`).toBe(quick);
    }
  });

  it('matchScore keeps exactly the columnScore values reaching MIN_SCORE', () => {
    for (const [a, b, ratio] of fixture.cases) {
      const expected = b === a ? 1.0 : b.startsWith(a) ? 0.9 : b.includes(a) ? 0.8 : ratio * 0.7;
      expect(columnScore(a, b), `${a} / ${b}`).toBe(expected);
      expect(matchScore(a, b), `${a} / ${b}`).toBe(expected > MIN_SCORE ? expected : null);
    }
  });
});

describe('upperBound at the edges of its fast path', () => {
  it('counts U+007F in the ASCII table and U+0080 outside it, on both sides', () => {
    // Python: SequenceMatcher(None, '\x80', '\x80').quick_ratio() == 1.0, and 0.5 for 'a\x80' vs '\x80b'.
    expect(queryCounts('\u0080').upperBound('\u0080')).toBe(1);
    expect(queryCounts('a\u0080').upperBound('\u0080b')).toBe(0.5);
    expect(queryCounts('\u007f').upperBound('\u007f')).toBe(1);
  });

  it('is 1.0 for two empty names, as Python quick_ratio is', () => {
    expect(queryCounts('').upperBound('')).toBe(1);
    expect(queryCounts('').upperBound('x')).toBe(0);
  });
});
