import { describe, expect, it } from 'vitest';
import { dispatcher, routeInput } from '../../components/keys/router.js';
import { hintsFor } from '../../components/keys/registry.js';
import { visibleRows } from '../../components/trace/rows.js';
import type { ConsoleState } from '../../components/state/types.js';
import { press, pressAll, recorder, span, traceOf, withTraces } from './key-press.js';

// root ─ api (error) ─ cart (error) ─ db (error) ─ pool (error, the origin)
//      └ slow (slow)
//      └ other ─ x (error, shallower origin)
const CHAIN = traceOf([span('root', [
  span('api', [span('cart', [span('db', [span('pool', [], { error: true, service: 'postgres', attributes: { 'db.system': 'postgresql' } })], { error: true })], { error: true, service: 'cart' })], { error: true }),
  span('slow', [], { slow: true }),
  span('other', [span('x', [], { error: true, service: 'cart' })]),
], { error: true })]);

const cursorSpan = (s: ConsoleState) => {
  const t = s.trace.traces[s.trace.open as number];
  return visibleRows(t.roots, s.trace.folded)[s.trace.cursor]?.node.spanId;
};

/** Keys typed through the router, as the terminal sends them. */
function type(s: ConsoleState, keys: string[]): ConsoleState {
  const ref = { current: s };
  const route = dispatcher(ref, () => undefined);
  for (const k of keys) routeInput(() => ref.current, k, k === '\r' ? { return: true } : k === '\x1b' ? { escape: true } : {}, { dispatch: route, actions: recorder() });
  return ref.current;
}

describe('where the errors start in an open trace', () => {
  it('e goes straight to the deepest failing span with no failing child, in one press', () => {
    expect(cursorSpan(press(withTraces([CHAIN]), 'e'))).toBe('pool');
  });

  it('e unfolds the spans above the origin when they were folded', () => {
    const s = press(pressAll(withTraces([CHAIN]), ['[']), 'e');
    expect(cursorSpan(s)).toBe('pool');
    expect(s.trace.folded.api).toBeUndefined();
  });

  it('e in a trace with no error stays put and says so', () => {
    const s = press(withTraces([traceOf([span('ok')])]), 'e');
    expect([s.trace.cursor, s.status.message]).toEqual([0, 'No span failed in this trace']);
  });

  it('n skips the failing callers: it stops at error starts and slow spans only; N goes back', () => {
    const s = withTraces([CHAIN]);
    expect(['n', 'n', 'n', 'n'].map((_, i) => cursorSpan(pressAll(s, Array(i + 1).fill('n'))))).toEqual(['pool', 'slow', 'x', 'pool']);
    expect(cursorSpan(press(s, 'N'))).toBe('x');
  });
});

describe('/ searches inside an open trace', () => {
  it('a paste into the search is one edit: its newline ends the search, nothing after it acts as a key', () => {
    const s = type(withTraces([CHAIN]), ['/', 'cart\rG']);
    expect([s.trace.search, s.trace.searching, cursorSpan(s)]).toEqual(['cart G', false, 'root']);
  });

  it('each key typed moves to the first match; Enter keeps the search for n/N', () => {
    const s = type(withTraces([CHAIN]), ['/', 'c', 'a', 'r', 't', '\r']);
    expect([s.trace.search, s.trace.searching, cursorSpan(s)]).toEqual(['cart', false, 'cart']);
    expect(cursorSpan(press(s, 'n'))).toBe('x');
    expect(cursorSpan(pressAll(s, ['n', 'n']))).toBe('cart');
    expect(cursorSpan(press(s, 'N'))).toBe('x');
  });

  it('matches attribute keys and values too, unfolding the match', () => {
    const s = type(pressAll(withTraces([CHAIN]), ['[']), ['/', 'p', 'o', 's', 't', 'g', 'r', 'e', 's', 'q', 'l', '\r']);
    expect(cursorSpan(s)).toBe('pool');
  });

  it('Esc while typing drops the search; Esc after Enter clears it before closing anything', () => {
    expect(type(withTraces([CHAIN]), ['/', 'c', '\x1b']).trace.search).toBe('');
    const kept = type(withTraces([CHAIN, traceOf([span('z')], { traceId: 'ab'.repeat(16) })]), ['/', 'c', '\r']);
    const back = type(kept, ['\x1b']);
    expect([back.trace.search, back.trace.open]).toEqual(['', kept.trace.open]);
  });

  it('in the list / still filters the list', () => {
    const list = press(withTraces([CHAIN, traceOf([span('z')], { traceId: 'ab'.repeat(16) })]), 'escape');
    expect(press(list, '/').trace.filtering).toBe(true);
  });

  it('the hints name e for where errors start', () => {
    expect(hintsFor(withTraces([CHAIN])).map((h) => h.keys)).toContain('e');
  });
});
