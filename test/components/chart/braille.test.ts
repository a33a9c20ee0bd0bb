import { describe, expect, it } from 'vitest';
import { brailleChar, dotX, dotY, emptyGrid, gridRows, legendMark, plotSeries } from '../../../components/chart/braille.js';

/** The dots set in a grid, as [x, y] in dot coordinates. */
function dots(g: ReturnType<typeof emptyGrid>): [number, number][] {
  const bit = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];
  const out: [number, number][] = [];
  for (let r = 0; r < g.rows; r++) for (let c = 0; c < g.cols; c++) for (let y = 0; y < 4; y++) for (let x = 0; x < 2; x++) if (g.bits[r][c] & bit[y][x]) out.push([c * 2 + x, r * 4 + y]);
  return out;
}

describe('braille plot', () => {
  it('encodes dots as U+2800 + bits: left column 1-2-3-7, right 4-5-6-8', () => {
    expect(brailleChar(0)).toBe('\u2800');
    expect(brailleChar(0x01 | 0x02 | 0x04 | 0x40)).toBe('⡇');
    expect(brailleChar(0xff)).toBe('⣿');
  });

  it('spreads points over the whole width and values from the bottom row (lo) to the top (hi)', () => {
    expect([dotX(0, 5, 4), dotX(4, 5, 4), dotX(2, 5, 4)]).toEqual([0, 7, 4]);
    expect([dotY(0, 0, 10, 2), dotY(10, 0, 10, 2), dotY(99, 0, 10, 2), dotY(-5, 0, 10, 2)]).toEqual([7, 0, 0, 7]);
  });

  it('draws a flat series as one row of dots at the bottom, every dot column set', () => {
    const g = plotSeries(emptyGrid(4, 2), [0, 0, 0, 0, 0], 0, 10);
    expect(gridRows(g)).toEqual(['    ', '⣀⣀⣀⣀']);
  });

  it('joins a rise into a solid column: no hole between the low and the high point', () => {
    const g = plotSeries(emptyGrid(2, 2), [0, 10], 0, 10);
    const ys = new Set(dots(g).map(([, y]) => y));
    expect([...ys].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('leaves a gap (null) blank: nothing is drawn where nothing was sent, and no line crosses it', () => {
    const points = [5, 5, null, null, null, null, 5, 5];
    const g = plotSeries(emptyGrid(8, 1), points, 0, 10);
    const xs = new Set(dots(g).map(([x]) => x));
    // Points 0,1 at x 0,2; 6,7 at x 13,15: the columns between 3 and 12 stay empty.
    for (let x = 3; x <= 12; x++) expect(xs.has(x), `dot column ${x}`).toBe(false);
    expect(xs.has(0) && xs.has(15)).toBe(true);
  });

  it('draws a point between two gaps as one dot, whatever the pattern', () => {
    const g = plotSeries(emptyGrid(4, 1), [null, null, 7, null], 0, 10, 1);
    expect(dots(g)).toHaveLength(1);
  });

  it('draws later series sparser, so two series stay apart without colour, and owns each cell by the last series drawn', () => {
    const solid = dots(plotSeries(emptyGrid(10, 1), new Array(20).fill(5), 0, 10, 0)).length;
    const dotted = dots(plotSeries(emptyGrid(10, 1), new Array(20).fill(5), 0, 10, 1)).length;
    expect(dotted).toBeLessThan(solid);
    expect(legendMark(0)).not.toBe(legendMark(1));
    expect(legendMark(1)).not.toBe(legendMark(2));
    const g = plotSeries(plotSeries(emptyGrid(3, 1), [5, 5, 5], 0, 10, 0), [5, 5, 5], 0, 10, 1);
    expect(g.owner[0]).toContain(1);
  });
});
