import { describe, expect, it } from 'vitest';
import { SERVICE_PALETTE, TAG_COLORS, colorEnabled, serviceColor, stripColor } from '../../components/theme/palette.js';

describe('palette', () => {
  it('gives services colours no tag, marker or error uses', () => {
    const tags = new Set<string>(Object.values(TAG_COLORS));
    for (const c of SERVICE_PALETTE) expect(tags.has(c)).toBe(false);
    for (const s of ['checkout', 'payment', 'shipping', 'quote', 'frontend', 'frontend-proxy']) expect(tags.has(serviceColor(s))).toBe(false);
  });

  it('gives the demo\'s services distinct colours, stable within a session', () => {
    const services = ['frontend', 'frontend-proxy', 'checkout', 'payment', 'shipping', 'quote', 'cart', 'currency', 'email', 'ad', 'recommendation', 'product-catalog', 'fraud-detection', 'accounting', 'kafka', 'valkey-cart'];
    const colors = services.map(serviceColor);
    expect(new Set(colors).size).toBe(services.length);
    expect(serviceColor('payment')).toBe(colors[3]);
  });

  it('honours NO_COLOR: colours go, inverse and bold stay', () => {
    expect(colorEnabled({ NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ TERM: 'dumb' })).toBe(false);
    expect(colorEnabled({ TERM: 'xterm-256color' })).toBe(true);
    expect(stripColor('\x1b[38;5;207m[eBPF]\x1b[39m \x1b[7m\x1b[1msel\x1b[22m\x1b[27m \x1b[41m  \x1b[49m')).toBe('[eBPF] \x1b[7m\x1b[1msel\x1b[22m\x1b[27m   ');
  });
});
