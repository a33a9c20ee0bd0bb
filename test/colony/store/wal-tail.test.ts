import { describe, expect, it } from 'vitest';
import { walTail } from '../../../src/colony/store/wal-tail.js';

const HEADER = [0x64, 0x00, 0x62, 0x65, 0x00, 0x02, 0xff, 0xff];
/** One framed entry: [u64 size][u64 checksum][field 100 = type, then filler]. */
function entry(type: number, filler = 5): number[] {
  const payload = [0x64, 0x00, type, ...Array<number>(filler).fill(0x11)];
  const size = Buffer.alloc(16);
  size.writeBigUInt64LE(BigInt(payload.length), 0);
  return [...size, ...payload];
}
const USE_TABLE = 25;
const INSERT = 26;
const FLUSH = 100;
const tail = (bytes: number[]) => {
  const buf = Buffer.from(bytes);
  return walTail(buf.length, (at, n) => buf.subarray(at, at + n));
};

describe('walTail', () => {
  it('a log that ends at a commit is clean, and counts its commits', () => {
    const log = [...HEADER, ...entry(USE_TABLE), ...entry(INSERT, 40), ...entry(FLUSH), ...entry(INSERT), ...entry(FLUSH)];
    expect(tail(log)).toEqual({ kind: 'clean', bytes: log.length, commits: 2 });
    expect(tail(HEADER)).toEqual({ kind: 'clean', bytes: 8, commits: 0 });
    expect(tail([])).toEqual({ kind: 'clean', bytes: 0, commits: 0 });
  });

  it('a log cut inside an entry, or after entries of a commit without its flush, is torn where the last commit ended', () => {
    const first = [...HEADER, ...entry(INSERT), ...entry(FLUSH)];
    const second = [...entry(USE_TABLE), ...entry(INSERT, 40)];
    expect(tail([...first, ...second.slice(0, 30)])).toEqual({ kind: 'torn', bytes: first.length + 30, commits: 1, intactBytes: first.length });
    expect(tail([...first, ...second])).toEqual({ kind: 'torn', bytes: first.length + second.length, commits: 1, intactBytes: first.length });
    expect(tail([...first, 0x01, 0x02])).toMatchObject({ kind: 'torn', intactBytes: first.length });
  });

  it('a log of another version says nothing of its end', () => {
    expect(tail([0x64, 0x00, 0x62, 0x65, 0x00, 0x01, 0xff, 0xff, ...entry(FLUSH)])).toEqual({ kind: 'unknown', bytes: 8 + 16 + 8 });
  });
});
