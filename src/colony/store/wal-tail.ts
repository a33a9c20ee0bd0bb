import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Where a DuckDB write-ahead log's last complete transaction ends. DuckDB replays a log up to its
 * last complete entry and says nothing of the rest (measured, 1.5: a log cut to half replayed half
 * its commits, silently), so coral reads the framing itself. A log (WAL version 2) is an unframed
 * version header, then entries of [u64 payload size][u64 checksum][payload]; a payload begins with
 * field 100, the entry type, and each commit ends with a WAL_FLUSH entry. The checksums are DuckDB's
 * to verify: a mismatch makes it refuse the file, which damaged.ts explains.
 */
export type WalTail =
  | { kind: 'clean'; bytes: number; commits: number }
  /** Bytes past the last commit: a crash in the middle of one (never acknowledged), or a log cut short. */
  | { kind: 'torn'; bytes: number; commits: number; intactBytes: number }
  /** Not a log this reader knows (another WAL version): nothing can be said about its end. */
  | { kind: 'unknown'; bytes: number };

const HEADER = Buffer.from([0x64, 0x00, 0x62, 0x65, 0x00, 0x02, 0xff, 0xff]);
const FRAME = 16;
const WAL_FLUSH = 100;
const TYPE_FIELD = 100;

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Buffer;

/** The tail of a log of `size` bytes, reading only the frames (a few bytes per entry). */
export function walTail(size: number, readAt: ReadAt): WalTail {
  if (size === 0) return { kind: 'clean', bytes: 0, commits: 0 };
  if (size < HEADER.length || !readAt(0, HEADER.length).equals(HEADER)) return { kind: 'unknown', bytes: size };
  let at = HEADER.length;
  let intact = at;
  let commits = 0;
  while (at + FRAME + 3 <= size) {
    const frame = readAt(at, FRAME + 3);
    const payload = Number(frame.readBigUInt64LE(0));
    const end = at + FRAME + payload;
    if (payload < 3 || end > size) break;
    const type = frame.readUInt16LE(FRAME) === TYPE_FIELD ? frame[FRAME + 2] : -1;
    at = end;
    if (type === WAL_FLUSH) {
      intact = end;
      commits++;
    }
  }
  return intact === size ? { kind: 'clean', bytes: size, commits } : { kind: 'torn', bytes: size, commits, intactBytes: intact };
}

/** walTail of a log file. */
export function walTailOfFile(path: string, size: number): WalTail {
  const fd = openSync(path, 'r');
  try {
    return walTail(size, (position, length) => {
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, position);
      return buf.subarray(0, n);
    });
  } finally {
    closeSync(fd);
  }
}
