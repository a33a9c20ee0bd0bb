import { describe, expect, it } from 'vitest';
import { SPARK_BLOCKS, sparkline } from '../../src/core/sparkline.js';

describe('sparkline', () => {
  it('draws one cell per point, lowest as ▁ and highest as █, between the smallest and the largest point', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([10, 17, 10])).toBe('▁█▁');
  });

  it('leaves a gap as a space, never as a zero', () => {
    expect(sparkline([0, null, 7])).toBe('▁ █');
    expect(sparkline([null, null])).toBe('  ');
    expect(sparkline([])).toBe('');
  });

  it('draws counts from zero when asked, so 9 and 10 are both tall', () => {
    expect(sparkline([9, 10], { min: 0 })).toBe('▇█');
    expect(sparkline([9, 10])).toBe('▁█');
  });

  it('keeps a fixed scale: values outside it are clamped, several rows on one scale compare', () => {
    expect(sparkline([0, 5, 50], { min: 0, max: 10 })).toBe('▁▅█');
  });

  it('draws a flat series at ▁ when it is zero and at ▄ otherwise', () => {
    expect(sparkline([0, 0, 0])).toBe('▁▁▁');
    expect(sparkline([3, 3])).toBe('▄▄');
    expect(sparkline([3, 3], { min: 0 })).toBe('██');
  });

  it('uses only the eight blocks and spaces', () => {
    const line = sparkline(Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? null : Math.sin(i) * 100)));
    expect([...line].every((c) => c === ' ' || (SPARK_BLOCKS as readonly string[]).includes(c))).toBe(true);
    expect([...line]).toHaveLength(500);
  });
});
