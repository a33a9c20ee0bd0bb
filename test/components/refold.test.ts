import { describe, expect, it } from 'vitest';
import type { TraceNodeJson } from '../../components/state/types.js';
import { visibleRows } from '../../components/trace/rows.js';
import { Random } from '../../src/core/random.js';
import { node } from './fixtures.js';

/**
 * Folding one span patches the rows of the previous fold state instead of flattening the whole
 * tree again: after any sequence of folds, unfolds, fold-alls and folds of hidden spans, the rows
 * must be the ones a fresh flatten gives.
 */
function randomTree(r: Random, depth: number, prefix: string): TraceNodeJson[] {
  return Array.from({ length: depth === 0 ? r.int(1, 2) : r.int(0, 4) }, (_, i) => {
    const id = `${prefix}${i}`;
    return node(id, 'svc', `op ${id}`, 'otlp', 0, 1, depth < 4 ? randomTree(r, depth + 1, `${id}.`) : []);
  });
}

function ids(nodes: TraceNodeJson[]): string[] {
  return nodes.flatMap((n) => [n.spanId, ...ids(n.children)]);
}

/** The rows as a fresh flatten draws them: a new roots array misses the per-tree cache. */
const fresh = (roots: TraceNodeJson[], folded: Record<string, true>) => visibleRows([...roots], folded);

describe('visible rows after a fold', () => {
  it('equal a fresh flatten after every fold, unfold and fold-all', () => {
    const r = new Random(7);
    for (let tree = 0; tree < 30; tree++) {
      const roots = randomTree(r, 0, 's');
      const all = ids(roots);
      let folded: Record<string, true> = {};
      for (let step = 0; step < 40; step++) {
        const next = { ...folded };
        // The cursor: on the folded row as in the console, anywhere, or not given.
        let cursor = -1;
        if (r.chance(0.1)) {
          for (const id of all) if (r.chance(0.5)) next[id] = true;
        } else {
          const id = r.pick(all);
          if (next[id]) delete next[id];
          else next[id] = true;
          const before = visibleRows(roots, folded);
          cursor = r.chance(0.6) ? before.findIndex((row) => row.node.spanId === id) : r.int(-1, before.length);
        }
        folded = next;
        expect(visibleRows(roots, folded, cursor), `tree ${tree} step ${step}`).toEqual(fresh(roots, folded));
      }
    }
  });

  it('folds every row of a repeated span id, wherever the cursor is', () => {
    const roots = [node('r', 'svc', 'GET /', 'otlp', 0, 1, [node('x', 'svc', 'a', 'otlp', 0, 1, [node('x1', 'svc', 'a1', 'otlp', 0, 1)]), node('x', 'svc', 'b', 'otlp', 0, 1, [node('x2', 'svc', 'b1', 'otlp', 0, 1)])])];
    visibleRows(roots, {});
    const rows = visibleRows(roots, { x: true }, 1);
    expect(rows.map((row) => row.node.name)).toEqual(['GET /', 'a', 'b']);
    expect(rows).toEqual(fresh(roots, { x: true }));
  });

  it('folds and unfolds one span of a 100,000-span tree by patching the rows', () => {
    const roots = [node('root', 'svc', 'GET /', 'otlp', 0, 1, Array.from({ length: 316 }, (_, i) => node(`c${i}`, 'svc', `op ${i}`, 'otlp', 0, 1, Array.from({ length: 315 }, (_, j) => node(`c${i}-${j}`, 'leaf', `leaf ${j}`, 'otlp', 0, 1)))))];
    const open = visibleRows(roots, {});
    const folded = visibleRows(roots, { c1: true }, 2 + 315);
    expect(folded).toHaveLength(open.length - 315);
    expect(folded[2 + 315]).toMatchObject({ folded: true, prefix: '   ├─' });
    expect(folded[2 + 315].node.spanId).toBe('c1');
    // The rows around the fold are the same row objects: nothing else was rebuilt.
    expect(folded[2 + 316]).toBe(open[2 + 316 + 315]);
    // A copy of the same fold set (the key router and React each run the reducer) reuses the rows.
    expect(visibleRows(roots, { c1: true })).toBe(folded);
    const again = visibleRows(roots, {});
    expect(again).toEqual(open);
    expect(again[0]).toBe(open[0]);
  });
});
