import { describe, expect, it } from 'vitest';
import { type Anchor, resolveWindow, windowWords } from '../../../src/agent/understand/window.js';

const NOW = Date.parse('2026-11-27T13:40:00Z');
const at = (q: string, anchors: Anchor[] = []) => {
  const w = windowWords(q);
  return w ? resolveWindow(w, NOW, anchors) : null;
};

describe('windowWords and resolveWindow', () => {
  it('reads relative windows as a time_range ending now', () => {
    expect(at('errors in the last 15 minutes')).toMatchObject({ timeRange: '15m', window: { start: '2026-11-27T13:25:00Z', end: '2026-11-27T13:40:00Z' } });
    expect(at('p99 over the past hour')?.timeRange).toBe('1h');
    expect(at('summarize the last 24h')?.timeRange).toBe('24h');
    expect(at('last 2h')?.timeRange).toBe('2h');
    expect(at('is cart ok?')).toBeNull();
  });

  it('reads clock times as UTC, today unless that is still to come', () => {
    expect(at('errors since 13:05')).toMatchObject({ window: { start: '2026-11-27T13:05:00Z', end: '2026-11-27T13:40:00Z' }, timeRange: '35m' });
    expect(at('between 13:00 and 13:20')).toMatchObject({ window: { start: '2026-11-27T13:00:00Z', end: '2026-11-27T13:20:00Z' }, timeRange: null });
    expect(at('since 14:00')?.window.start).toBe('2026-11-26T14:00:00Z');
    expect(at('what happened yesterday')?.window).toMatchObject({ start: '2026-11-26T00:00:00Z', end: '2026-11-27T00:00:00Z' });
  });

  it('anchors before/after on the deploy of the service named, else the latest', () => {
    const anchors: Anchor[] = [
      { kind: 'deploy', time: '2026-11-27T13:20:00Z', service: 'cart', title: 'cart 2.1 rolled out' },
      { kind: 'deploy', time: '2026-11-27T13:30:00Z', service: 'ad', title: 'ad 3 rolled out' },
    ];
    const r = resolveWindow(windowWords('compare p99 of cart before and after the deploy')!, NOW, anchors, ['cart']);
    expect(r?.compare?.anchor.service).toBe('cart');
    expect(r?.compare?.before).toMatchObject({ start: '2026-11-27T13:00:00Z', end: '2026-11-27T13:20:00Z' });
    expect(r?.compare?.after).toMatchObject({ start: '2026-11-27T13:20:00Z', end: '2026-11-27T13:40:00Z' });
    expect(at('since the deploy', anchors)).toMatchObject({ timeRange: '10m', anchor: { service: 'ad' } });
    // No deploy known: nothing to anchor on, said by the caller rather than guessed.
    expect(at('before and after the deploy')).toBeNull();
    expect(windowWords('before and after the incident started')).toMatchObject({ kind: 'anchor', anchor: 'incident', mode: 'around' });
    // A clock time needs no anchor from the colony.
    expect(at('checkout p95 before and after 13:26')?.compare).toMatchObject({ before: { start: '2026-11-27T13:12:00Z', end: '2026-11-27T13:26:00Z' }, after: { end: '2026-11-27T13:40:00Z' } });
  });

  it('labels the window with where it came from', () => {
    expect(at('in the last 15 minutes')?.window.label).toBe('13:25-13:40 UTC (15 min), from your words "in the last 15 minutes"');
  });
});
