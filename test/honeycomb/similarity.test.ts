import { describe, expect, it } from 'vitest';
import { SequenceMatcher, columnScore } from '../../src/honeycomb/similarity.js';

describe('columnScore: every REFERENCE test vector, to the last digit', () => {
  it.each([
    ['latency', 'http.response.latency_ms', 0.8],
    ['latency', 'latency_bucket', 0.9],
    ['latency', 'duration_ms', 0.2333333333333333],
    ['http.status', 'http.response.status_code', 0.4277777777777778],
    ['http.status', 'http.status_code', 0.9],
    ['statis', 'status_code', 0.4117647058823529],
    ['memroy', 'system.memory.usage', 0.27999999999999997],
    ['errr', 'error', 0.6222222222222221],
    ['dbstatement', 'db.statement', 0.6695652173913044],
    ['db_query', 'db.query.text', 0.4666666666666666],
    ['cpu util', 'system.cpu.utilization', 0.32666666666666666],
    ['Duration_MS', 'duration_ms', 1.0],
    ['tide', 'diet', 0.175],
  ])('%s vs %s = %s', (query, column, score) => {
    expect(columnScore(query, column)).toBe(score);
  });
});

describe('SequenceMatcher.ratio like Python difflib', () => {
  it.each([
    ['statis', 'status', 0.8333333333333334],
    ['abcd', 'bcda', 0.75],
    ['', '', 1.0],
    ['tide', 'diet', 0.25],
    ['diet', 'tide', 0.5],
  ])('ratio(%s, %s) = %s', (a, b, r) => {
    expect(new SequenceMatcher(a, b).ratio()).toBe(r);
  });

  it('applies autojunk to sequences of 200 or more elements', () => {
    // b has 200 elements; "a" occurs 199 times > 200 // 100 + 1, so it is popular and only "c" can
    // seed a match: one block of 1. Python: SequenceMatcher(None, "aaac", "c" + "a" * 199).ratio()
    expect(new SequenceMatcher('aaac', `c${'a'.repeat(199)}`).ratio()).toBe((2 * 1) / 204);
    // At 199 elements nothing is popular: the run "aaa" matches.
    expect(new SequenceMatcher('aaac', `c${'a'.repeat(198)}`).ratio()).toBe((2 * 3) / 203);
  });

  it('compares code points, not UTF-16 units', () => {
    expect(new SequenceMatcher('😀x', '😀y').ratio()).toBe(0.5);
  });
});

describe('matchScore (the search fast path)', () => {
  it('equals columnScore wherever the score is kept, and drops exactly the rest', async () => {
    const { matchScore, MIN_SCORE } = await import('../../src/honeycomb/similarity.js');
    const columns = ['http.response.latency_ms', 'latency_bucket', 'duration_ms', 'http.response.status_code', 'status_code', 'system.memory.usage', 'error', 'db.statement', 'db.query.text', 'system.cpu.utilization', 'diet', 'x', ''];
    for (const query of ['latency', 'http.status', 'statis', 'memroy', 'errr', 'dbstatement', 'db_query', 'cpu util', 'tide']) {
      for (const column of columns) {
        const full = columnScore(query, column);
        expect(matchScore(query.toLowerCase(), column), `${query} / ${column}`).toBe(full > MIN_SCORE ? full : null);
      }
    }
  });
});
