import { describe, expect, it } from 'vitest';
import { StoreBusyError } from '../../../src/colony/store/busy.js';
import { DiskFullError, RESUME_MARGIN_BYTES, diskFault, diskFullWords, roomToResume } from '../../../src/colony/store/disk-fault.js';

// DuckDB 1.5.6's words, as measured on a full tmpfs (disk-fault.ts).
const COMMIT_ENOSPC = 'TransactionContext Error: Failed to commit: Could not write file "/d/c.duckdb.wal": No space left on device';
const CHECKPOINT_ENOSPC = 'FATAL Error: Failed to create checkpoint because of error: Could not write file "/d/c.duckdb": No space left on device';
const INVALIDATED = 'FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.\nOriginal error: "Failed to create checkpoint because of error: Could not write file "/d/c.duckdb": No space left on device"';

describe('diskFault', () => {
  it('reads a commit that found no room as a full disk, the instance still usable', () => {
    expect(diskFault(new Error(COMMIT_ENOSPC))).toEqual({ full: true, invalidated: false });
    expect(diskFault(new Error('IO Error: Could not write file "/d/x": Disk quota exceeded'))).toEqual({ full: true, invalidated: false });
  });

  it('reads a failed checkpoint and every statement after it as an invalidated instance', () => {
    expect(diskFault(new Error(CHECKPOINT_ENOSPC))).toEqual({ full: true, invalidated: true });
    expect(diskFault(new Error(INVALIDATED))).toEqual({ full: true, invalidated: true });
    expect(diskFault(new Error('FATAL Error: Failed: database has been invalidated because of a previous fatal error.'))).toEqual({ full: false, invalidated: true });
  });

  it('leaves every other failure alone, its own refusal included', () => {
    expect(diskFault(new Error('Constraint Error: Duplicate key "span_id: 1"'))).toBeNull();
    expect(diskFault(new Error('TransactionContext Error: Catalog write-write conflict on create with "x"'))).toBeNull();
    expect(diskFault(new DiskFullError({ dir: '/d', freeBytes: 0, since: 0 }))).toBeNull();
    expect(diskFault(undefined)).toBeNull();
    expect(diskFault('No space left on device')).toEqual({ full: true, invalidated: false });
  });
});

describe('roomToResume', () => {
  it('wants the log and a margin free', () => {
    expect(roomToResume(RESUME_MARGIN_BYTES, 0)).toBe(true);
    expect(roomToResume(RESUME_MARGIN_BYTES - 1, 0)).toBe(false);
    expect(roomToResume(RESUME_MARGIN_BYTES + 8_000_000, 8_000_000)).toBe(true);
    expect(roomToResume(RESUME_MARGIN_BYTES + 7_999_999, 8_000_000)).toBe(false);
  });
});

describe('the refusal', () => {
  it('is retryable as a busy store is, and says where and how much is free', () => {
    const err = new DiskFullError({ dir: '/var/coral', freeBytes: 12_288, since: 0 });
    expect(err).toBeInstanceOf(StoreBusyError);
    expect(err.message).toBe(diskFullWords({ dir: '/var/coral', freeBytes: 12_288, since: 0 }));
    expect(err.message).toBe('disk full at /var/coral (12,288 bytes free); exports are refused with 503 until space frees (reads answer from what is stored)');
  });
});
