import { describe, expect, it } from 'vitest';
import { type TableDef, varchar } from '../../../src/colony/store/columns.js';
import { encodeSegment } from '../../../src/colony/store/columnar.js';
import { heapRange } from '../../../src/colony/store/columnar-fill.js';

const TABLE: TableDef<{ s: string }> = { name: 't', columns: [varchar('s', (r) => r.s)], primaryKey: [] };

/** A one-column segment's slots and long-row list, as fillStrings reads them. */
function column(values: string[]) {
  const seg = encodeSegment(TABLE, values.map((s) => ({ s })));
  const v = seg.columns[0];
  return {
    slots: new Uint32Array(seg.data, v.values, values.length * 4),
    long: new Int32Array(seg.data, v.long, v.longCount),
    heapBytes: v.heapTo - v.heapFrom,
  };
}

describe('heapRange', () => {
  it("covers only the bytes of the part's own long strings, not the whole column", () => {
    // 100 distinct strings of 20 bytes each: rows 40..59 hold bytes 800..1200.
    const values = Array.from({ length: 100 }, (_, i) => `value-${String(i).padStart(14, '0')}`);
    const { slots, long, heapBytes } = column(values);
    expect(heapBytes).toBe(2000);
    expect(heapRange(slots, long, 40, 60, 0)).toEqual({ from: 800, to: 1200 });
    // Slots copied to another place (a chunk row 7 holds segment row 40): same bytes.
    const moved = new Uint32Array(100 * 4);
    moved.set(slots.subarray(40 * 4, 60 * 4), 7 * 4);
    expect(heapRange(moved, long, 40, 60, 7 - 40)).toEqual({ from: 800, to: 1200 });
  });

  it("reaches back to a repeated string's first holder, before the part", () => {
    const first = 'repeated string, longer than twelve bytes';
    const values = [first, ...Array.from({ length: 50 }, (_, i) => `unique-${String(i).padStart(13, '0')}`), first];
    const { slots, long } = column(values);
    // Row 51 (the repeat) points at row 0's bytes.
    expect(heapRange(slots, long, long.indexOf(51), 52, 0)).toEqual({ from: 0, to: first.length });
    expect(heapRange(slots, long, long.indexOf(50), 52, 0)).toEqual({ from: 0, to: first.length + 50 * 20 });
  });
});
