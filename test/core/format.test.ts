import { describe, expect, it } from 'vitest';
import { formatCount, formatMs, plural } from '../../src/core/format.js';

describe('formatCount', () => {
  it('writes what toLocaleString("en-US") writes, rounded', () => {
    const values = [0, -0, 0.4, -0.4, 1, 12, 999, 999.5, 1000, -1000, 1234.4, 12345, 123456, 1234567, -9876543.6, 2 ** 53, 1e20, 1e21, 1e25, Number.NaN, Infinity, -Infinity];
    for (const v of values) expect(formatCount(v), String(v)).toBe(Math.round(v).toLocaleString('en-US'));
  });

  it('groups thousands with commas', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatMs(1234.4)).toBe('1,234ms');
    expect(formatMs(0.4234)).toBe('0.42ms');
  });
});

describe('plural', () => {
  it('uses the singular for exactly one and the plural otherwise, with an optional count format', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(2, 'error span')).toBe('2 error spans');
    expect(plural(12345, 'span', formatCount)).toBe('12,345 spans');
  });
});
