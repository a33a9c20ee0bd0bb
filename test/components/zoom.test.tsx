import { describe, expect, it } from 'vitest';
import { droppedNote } from '../../components/panes/table.js';
import { compactPrefix, tightPrefix, treePrefix } from '../../components/trace/row-layout.js';
import { KEY, mountPerTest, node, trace } from './fixtures.js';

const mount = mountPerTest();

/** A chain of spans seven levels deep, as a checkout request through the demo's services. */
function deepTrace() {
  const names = ['ingress', 'GET /api/checkout', 'POST /api/checkout', 'oteldemo.CheckoutService/PlaceOrder', 'oteldemo.PaymentService/Charge', 'charge card', 'tokenize'];
  let child = node('s6', 'payment', names[6], 'otlp', 6, 4);
  for (let i = 5; i >= 0; i--) child = node(`s${i}`, i < 2 ? 'frontend-proxy' : 'checkout', names[i], 'otlp', i, 40 - i, [child]);
  return trace([child], 7);
}

describe('the tree prefix in narrow panes', () => {
  it('draws ancestors three, two or one cells wide as the name column narrows', () => {
    const prefix = '│     ├─';
    expect(treePrefix(prefix, 60)).toBe(prefix);
    expect(treePrefix(prefix, 40)).toBe(compactPrefix(prefix));
    expect(compactPrefix(prefix)).toBe('│   ├─');
    expect(treePrefix(prefix, 20)).toBe('│ ├');
    expect(tightPrefix('└─')).toBe('└');
    expect(tightPrefix('   │  └─')).toBe(' │└');
  });
});

describe('zoom (z)', () => {
  it('gives a narrow trace view the whole width, and Tab gives the panes back', async () => {
    const m = mount({ cols: 80, rows: 24, traces: [deepTrace()] });
    await m.keys(KEY.esc, 'G');
    const narrow = m.frame();
    expect(narrow).toContain('ask about');
    expect(narrow).toContain('z: zoom');
    expect(narrow).not.toContain('payment: tokenize');

    await m.keys('z');
    const zoomed = m.frame();
    expect(zoomed).not.toContain('ask about');
    expect(zoomed).not.toContain('z: zoom');
    expect(zoomed).toContain('payment: tokenize');
    expect(zoomed).toContain('checkout: oteldemo.CheckoutService/P');
    // Wide enough again for the timing bar and its ruler.
    expect(zoomed).toContain('0·········100ms');

    await m.keys(KEY.tab);
    expect(m.frame()).toContain('ask about');
    await m.keys(KEY.shiftTab, KEY.shiftTab);
    expect(m.frame()).toContain('z: zoom');
  });

  it('z again restores both panes, and in the chat input z is typed', async () => {
    const m = mount({ cols: 80, rows: 24, traces: [deepTrace()] });
    await m.keys(KEY.esc, 'z');
    expect(m.frame()).not.toContain('ask about');
    await m.keys('z');
    expect(m.frame()).toContain('ask about');
    await m.keys(KEY.tab, 'z');
    expect(m.frame()).toContain('› z');
  });

  it('says how to see the columns a narrow table hid', () => {
    expect(droppedNote(['P99', 'errors'], false)).toBe('(narrow pane: P99, errors hidden · z: zoom)');
    expect(droppedNote(['P99'], true)).toBe('(narrow pane: P99 hidden)');
    expect(droppedNote([], false)).toBeNull();
  });
});
