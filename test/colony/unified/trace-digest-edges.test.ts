import { describe, expect, it } from 'vitest';
import type { TraceTree, TreeNode } from '../../../src/colony/unified/span-tree.js';
import { ORDER_DESCRIPTIONS, TRACE_ORDERS, digestTrace, orderTraces, sourceMix, tracesAnalysis } from '../../../src/colony/unified/trace-digest.js';

/**
 * The trace digest, list order and closing analysis on hand-built trees, so each count, tie and
 * threshold is set exactly: the digest's order of services, ties in every sort, which origins and
 * which slow span the analysis names, and its source counts.
 */
function n(service: string, p: Partial<TreeNode> = {}, children: TreeNode[] = []): TreeNode {
  return { spanId: service, parentSpanId: '', service, name: `${service} op`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children, ...p };
}
function tree(traceId: string, roots: TreeNode[], p: Partial<TraceTree> = {}): TraceTree {
  return { traceId, startNs: 0n, durationMs: 10, spanCount: 0, mergedCount: 0, services: [], depth: 1, incomplete: false, resources: {}, roots, ...p };
}
const item = (t: TraceTree) => ({ tree: t, digest: digestTrace(t) });
const ids = (xs: { tree: { traceId: string } }[]) => xs.map((x) => x.tree.traceId);

it('the orders and what each means', () => {
  expect(TRACE_ORDERS).toEqual(['errors', 'duration', 'recent']);
  expect(ORDER_DESCRIPTIONS).toEqual({ errors: 'failing first, then slowest', duration: 'slowest first', recent: 'most recent first' });
});

describe('digestTrace', () => {
  it('an empty trace has no root and counts nothing but its merged twins', () => {
    expect(digestTrace({ roots: [], mergedCount: 3 })).toEqual({ rootService: '', rootName: '', errorCount: 0, services: [], errorServices: [], sources: { otlp: 0, ebpf: 0, merged: 3 } });
  });

  it('lists each service once, failing ones first, each group in first-seen order (depth first)', () => {
    const t = tree('t', [n('a', {}, [n('b', { error: true }, [n('c')]), n('d', { source: 'ebpf' }), n('b'), n('e', { error: true })]), n('f', { name: 'late root' })]);
    expect(digestTrace(t)).toEqual({ rootService: 'a', rootName: 'a op', errorCount: 2, services: ['b', 'e', 'a', 'c', 'd', 'f'], errorServices: ['b', 'e'], sources: { otlp: 6, ebpf: 1, merged: 0 } });
  });
});

describe('orderTraces', () => {
  const at = (id: string, startNs: bigint, durationMs: number, error = false) => item(tree(id, [n('s', { error })], { startNs, durationMs }));

  it('recent: later starts first, equal starts by trace id', () => {
    expect(ids(orderTraces([at('b', 5n, 1), at('a', 5n, 1), at('c', 9n, 1), at('d', 1n, 1)], 'recent'))).toEqual(['c', 'a', 'b', 'd']);
  });

  it('errors: among failing traces the slowest first, then the more recent', () => {
    expect(ids(orderTraces([at('f1', 1n, 5, true), at('ok', 9n, 99), at('f2', 2n, 50, true), at('f3', 3n, 5, true)], 'errors'))).toEqual(['f2', 'f3', 'f1', 'ok']);
  });

  it('duration: equal durations by the more recent start, then by id', () => {
    expect(ids(orderTraces([at('y', 1n, 10), at('x', 1n, 10), at('z', 2n, 10), at('w', 0n, 30)], 'duration'))).toEqual(['w', 'z', 'x', 'y']);
  });

  it('sorts in place and returns the same array', () => {
    const xs = [at('a', 1n, 1), at('b', 2n, 1)];
    expect(orderTraces(xs, 'recent')).toBe(xs);
    expect(ids(xs)).toEqual(['b', 'a']);
  });
});

describe('sourceMix', () => {
  const d = (otlp: number, ebpf: number, merged: number) => ({ rootService: '', rootName: '', errorCount: 0, services: [], errorServices: [], sources: { otlp, ebpf, merged } });
  it('names which sources saw the spans; merged twins count as eBPF', () => {
    expect(sourceMix(d(1, 1, 0))).toBe('eBPF+OTLP');
    expect(sourceMix(d(1, 0, 1))).toBe('eBPF+OTLP');
    expect(sourceMix(d(0, 1, 0))).toBe('eBPF only');
    expect(sourceMix(d(0, 0, 1))).toBe('eBPF only');
    expect(sourceMix(d(1, 0, 0))).toBe('OTLP only');
    expect(sourceMix(d(0, 0, 0))).toBe('none');
  });
});

describe('tracesAnalysis', () => {
  it('names at most three origins, the most frequent first, ties by name', () => {
    const fail = (id: string, service: string) => item(tree(id, [n('front', { error: true }, [n(service, { error: true })])]));
    const text = tracesAnalysis([fail('1', 'zeta'), fail('2', 'zeta'), fail('3', 'beta'), fail('4', 'alpha'), fail('5', 'gamma'), item(tree('6', [n('front')]))]);
    expect(text.startsWith('Analysis: 5 of 6 traces failed; the errors start in zeta (2), alpha (1), beta (1);')).toBe(true);
  });

  it('says the share of self time of the top service and names the slow span with the most self time', () => {
    const t = tree('t', [n('api', { selfMs: 30 }, [n('db', { selfMs: 60, slow: true, name: 'query' }), n('cache', { selfMs: 10, slow: true })])]);
    expect(tracesAnalysis([item(t)])).toBe('Analysis: none of the 1 traces failed; most time is spent in db itself (60% of all self time); slowest span db: query 60ms of its own; sources: 3 [OTLP] spans.');
  });

  it('of two slow spans with the same self time names the first; self time ties go to the name first in order', () => {
    const t = tree('t', [n('b', { selfMs: 50, slow: true, name: 'first' }, [n('a', { selfMs: 50, slow: true, name: 'second' })])]);
    expect(tracesAnalysis([item(t)])).toBe('Analysis: none of the 1 traces failed; most time is spent in a itself (50% of all self time); slowest span b: first 50ms of its own; sources: 2 [OTLP] spans.');
  });

  it('names the slow span with the most self time when it comes after a smaller one', () => {
    const t = tree('t', [n('api', { selfMs: 30 }, [n('cache', { selfMs: 10, slow: true }), n('db', { selfMs: 60, slow: true, name: 'query' })])]);
    expect(tracesAnalysis([item(t)])).toContain('slowest span db: query 60ms of its own');
  });

  it('a trace without spans: no self time and no sources to name', () => {
    expect(tracesAnalysis([item(tree('t', []))])).toBe('Analysis: none of the 1 traces failed.');
  });

  it('rounds the share to the nearest percent', () => {
    const t = tree('t', [n('x', { selfMs: 20 }, [n('y', { selfMs: 10 })])]);
    expect(tracesAnalysis([item(t)])).toContain('most time is spent in x itself (67% of all self time)');
  });

  it('adds self time per service across spans and traces', () => {
    const t1 = tree('1', [n('x', { selfMs: 20 }, [n('y', { selfMs: 30 })])]);
    const t2 = tree('2', [n('x', { selfMs: 20 })]);
    expect(tracesAnalysis([item(t1), item(t2)])).toContain('most time is spent in x itself (57% of all self time)');
  });

  it('says nothing of self time when there is none, and counts eBPF-only spans and merged twins', () => {
    const t = tree('t', [n('a', { selfMs: 0, source: 'ebpf' }, [n('b', { selfMs: 0 })])], { mergedCount: 2 });
    expect(tracesAnalysis([item(t)])).toBe('Analysis: none of the 1 traces failed; sources: 1 [OTLP] spans (2 also seen by eBPF), 1 [eBPF]-only spans.');
    const ebpf = tree('e', [n('a', { source: 'ebpf' })]);
    expect(tracesAnalysis([item(ebpf)])).toBe('Analysis: none of the 1 traces failed; most time is spent in a itself (100% of all self time); sources: 1 [eBPF]-only spans.');
  });

  it('an error span whose child also failed passes the error on; the child is the origin', () => {
    const t = tree('t', [n('a', { error: true }, [n('b', { error: true }, [n('c')]), n('d')])]);
    expect(tracesAnalysis([item(t)])).toMatch(/^Analysis: 1 of 1 traces failed; the errors start in b \(1\);/);
  });
});
