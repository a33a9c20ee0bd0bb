import { formatCount } from '../../core/format.js';
import { StoreBusyError } from './busy.js';

/**
 * What a DuckDB failure says about the disk under the colony. Measured on DuckDB 1.5.6 with a full
 * tmpfs: a commit whose log write hits ENOSPC fails alone ("Failed to commit: Could not write file
 * ...wal: No space left on device") and the instance goes on; a checkpoint that hits it is FATAL and
 * invalidates the instance ("database has been invalidated because of a previous fatal error"),
 * after which every statement on every connection fails until the file is opened again. Opened
 * again, even while the disk is still full, it replays its log and every commit is there.
 */
export interface DiskFault {
  /** The disk (or the user's quota) has no room left. */
  full: boolean;
  /** The DuckDB instance refuses everything from now on: it has to be opened again. */
  invalidated: boolean;
}

const FULL = /No space left on device|Disk quota exceeded|\bENOSPC\b|\bEDQUOT\b/i;
const INVALIDATED = /database has been invalidated|^FATAL Error/i;

/** The one reading of a failure as a disk fault (null: some other failure). */
export function diskFault(err: unknown): DiskFault | null {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  const fault = { full: FULL.test(message), invalidated: INVALIDATED.test(message) };
  return fault.full || fault.invalidated ? fault : null;
}

/** Where the disk is full, as last looked at. */
export interface DiskFullState {
  /** The folder holding the colony file and its log. */
  dir: string;
  /** Bytes free there for this user at the last look. */
  freeBytes: number;
  /** When the colony stopped taking writes (ms since the epoch). */
  since: number;
}

/**
 * Room beyond the log that must be free before writes resume: a checkpoint folds the log into the
 * file (new blocks first, the old ones freed after), and commits keep coming meanwhile.
 */
export const RESUME_MARGIN_BYTES = 4 * 1024 * 1024;

/** Whether there is room to take writes again: the log's size plus a margin. */
export function roomToResume(freeBytes: number, walBytes: number): boolean {
  return freeBytes >= walBytes + RESUME_MARGIN_BYTES;
}

/** The words `colony status` and serve's log use. */
export function diskFullWords(state: DiskFullState): string {
  return `disk full at ${state.dir} (${formatCount(state.freeBytes)} bytes free); exports are refused with 503 until space frees (reads answer from what is stored)`;
}

/** An export refused while the disk is full: retryable, as a busy store's (HTTP 503 + Retry-After, gRPC RESOURCE_EXHAUSTED). */
export class DiskFullError extends StoreBusyError {
  override name = 'DiskFullError';

  constructor(state: DiskFullState) {
    super(diskFullWords(state));
  }
}
