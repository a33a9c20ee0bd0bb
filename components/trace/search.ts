import { isErrorStart } from '../../src/colony/unified/trace-digest.js';
import type { TraceNodeJson } from '../state/types.js';

/**
 * Finding spans in an open trace (pure): `/` matches, n/N steps, `e` jumps to where the errors
 * start. The search runs over every span, folded or not; the span found is unfolded into view.
 */

/** Every span with its parent's entry, in display order (depth-first), built once per tree. */
interface Walked {
  node: TraceNodeJson;
  parent: Walked | null;
  depth: number;
}
const walkedOf = new WeakMap<TraceNodeJson[], Walked[]>();

function walked(roots: TraceNodeJson[]): Walked[] {
  const known = walkedOf.get(roots);
  if (known) return known;
  const out: Walked[] = [];
  // An explicit stack: a 10,000-deep chain must not overflow the call stack.
  const stack: Walked[] = roots.map((node) => ({ node, parent: null, depth: 0 })).reverse();
  while (stack.length) {
    const w = stack.pop() as Walked;
    out.push(w);
    for (let i = w.node.children.length - 1; i >= 0; i--) stack.push({ node: w.node.children[i], parent: w, depth: w.depth + 1 });
  }
  walkedOf.set(roots, out);
  return out;
}

const texts = new WeakMap<TraceNodeJson, string>();

/** What `/` matches in a span (lower case): service, operation, status message, attribute keys and values, span id. */
export function spanText(n: TraceNodeJson): string {
  let t = texts.get(n);
  if (t === undefined) {
    const attrs = Object.entries(n.attributes).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    t = [n.service, n.name, n.statusMessage, n.spanId, ...attrs].join('\n').toLowerCase();
    texts.set(n, t);
  }
  return t;
}

export const spanMatches = (n: TraceNodeJson, query: string) => {
  const q = query.trim().toLowerCase();
  return q !== '' && spanText(n).includes(q);
};

/** How many spans match, and which of them (1-based) `at` is; 0 when `at` is not a match. */
export function matchCount(roots: TraceNodeJson[], query: string, at: TraceNodeJson | undefined): { index: number; total: number } {
  let index = 0;
  let total = 0;
  for (const w of walked(roots)) {
    if (!spanMatches(w.node, query)) continue;
    total++;
    if (w.node === at) index = total;
  }
  return { index, total };
}

/**
 * The next span (delta 1) or previous one (-1) after `from` for which `pred` holds, wrapping
 * around; `from` undefined starts before the first span. Null when no span qualifies.
 */
export function findSpan(roots: TraceNodeJson[], from: TraceNodeJson | undefined, delta: 1 | -1, pred: (n: TraceNodeJson) => boolean): TraceNodeJson | null {
  const all = walked(roots);
  const n = all.length;
  const at = from ? all.findIndex((w) => w.node === from) : -1;
  const start = at < 0 ? (delta === 1 ? -1 : n) : at;
  for (let step = 1; step <= n; step++) {
    const w = all[(((start + delta * step) % n) + n) % n];
    if (pred(w.node)) return w.node;
  }
  return null;
}

/** Where the errors start: the deepest failing span with no failing child (the first in display order on a tie). */
export function deepestErrorStart(roots: TraceNodeJson[]): TraceNodeJson | null {
  let best: Walked | null = null;
  for (const w of walked(roots)) if (isErrorStart(w.node) && (!best || w.depth > best.depth)) best = w;
  return best?.node ?? null;
}

/** n/N without a search: the spans worth stopping at, where an error starts or a slow span (not every failing caller). */
export const flagged = (n: TraceNodeJson) => n.slow || isErrorStart(n);

/** The folds with `node`'s ancestors unfolded, so that it has a row; the same object when nothing changes. */
export function reveal(roots: TraceNodeJson[], folded: Record<string, true>, node: TraceNodeJson): Record<string, true> {
  const ancestors: string[] = [];
  for (let a = walked(roots).find((x) => x.node === node)?.parent; a; a = a.parent) ancestors.push(a.node.spanId);
  if (!ancestors.some((id) => folded[id])) return folded;
  const out = { ...folded };
  for (const id of ancestors) delete out[id];
  return out;
}
