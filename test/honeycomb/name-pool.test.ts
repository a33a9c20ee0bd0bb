import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { PARALLEL_MIN_NAMES, workerRanges } from '../../src/honeycomb/name-pool.js';
import { NameTable } from '../../src/honeycomb/name-table.js';
import { scoreNames } from '../../src/honeycomb/name-scorer.js';
import { MIN_SCORE, columnScore } from '../../src/honeycomb/similarity.js';

const PARTS = ['app', 'payment', 'amount', 'http', 'status_code', 'k8s', 'pod', 'name', 'latency_ms', 'x-request-id', 'é', '😀', 'p99'];

function bigTable(): { names: string[]; table: NameTable } {
  const rng = new Random(4096);
  const names = new Set<string>();
  while (names.size < PARALLEL_MIN_NAMES + 500) {
    const n = Array.from({ length: rng.int(1, 5) }, () => rng.pick(PARTS)).join(rng.pick(['.', '_', '-']));
    names.add(rng.chance(0.01) ? 'a'.repeat(200) + n : n + rng.int(0, 99));
  }
  return { names: [...names], table: new NameTable([...names]) };
}

/** Name -> score as scoreNames reports it. */
function scoresOf(table: NameTable, query: string, depth: number, parallel: boolean): Map<string, number> {
  const { ids, scores, count } = scoreNames(table, query, depth, undefined, parallel);
  const got = new Map<string, number>();
  for (let i = 0; i < count; i++) got.set(table.names[ids[i]], scores[i]);
  return got;
}

describe('scoring shared with the worker thread', () => {
  it('gives the same scores as one thread, and the worker does take ranges', async () => {
    const { names, table } = bigTable();
    const queries = ['payment.amount', 'pod', 'x-requst-id', 'e', '😀', 'latency_ms.p99', 'zzz'];
    // The worker starts (through tsx here), registers the table and wakes on its own event loop:
    // on a loaded machine that takes a while, and this thread never waits for it.
    const before = workerRanges();
    const deadline = Date.now() + 40_000;
    for (let k = 0; workerRanges() === before && Date.now() < deadline; k++) {
      const query = queries[k % queries.length];
      expect(scoresOf(table, query, 50, true), query).toEqual(scoresOf(table, query, 50, false));
      await sleep(20);
    }
    expect(workerRanges()).toBeGreaterThan(before);
    for (const query of queries) {
      for (const depth of [50, Infinity]) expect(scoresOf(table, query, depth, true), `${query} depth ${depth}`).toEqual(scoresOf(table, query, depth, false));
      // And the shared results are the specification's: every score exact when no page is asked for.
      const want = new Map(names.map((n) => [n, columnScore(query, n)] as const).filter(([, s]) => s > MIN_SCORE));
      expect(scoresOf(table, query, Infinity, true), query).toEqual(want);
    }
  });
});
