import { describe, expect, it } from 'vitest';
import { formatCount, plural } from '../../src/core/format.js';

describe('plural', () => {
  it('uses the singular for exactly one and the plural otherwise, with an optional count format', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(2, 'error span')).toBe('2 error spans');
    expect(plural(12345, 'span', formatCount)).toBe(`${formatCount(12345)} spans`);
  });
});
