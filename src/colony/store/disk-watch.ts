import { closeSync, fsyncSync, openSync, statSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DiskFullState, roomToResume } from './disk-fault.js';

/** How often a full disk is looked at again. */
export const PROBE_EVERY_MS = 1000;
/** A real write proves the room statfs reports (quotas, copy-on-write filesystems). */
const PROBE_BYTES = 64 * 1024;

/** Bytes free to this user in `dir` (statfs); 0 when it cannot be read. */
export function freeBytesIn(dir: string): number {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return 0;
  }
}

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Whether PROBE_BYTES can be written and synced beside the colony file (the probe file is removed). */
function canWrite(probePath: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(probePath, 'w', 0o600);
    writeSync(fd, Buffer.alloc(PROBE_BYTES));
    fsyncSync(fd);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(probePath);
    } catch {
      // Never made.
    }
  }
}

/**
 * The colony file's disk while it is full: entered on a write that failed for lack of room, looked
 * at every `everyMs` (statfs, then a real write), left once there is room for the log and a margin.
 * `onChange` hears both edges: `full` true as writes stop, false as they may resume.
 */
export class DiskWatch {
  private state: DiskFullState | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dbPath: string,
    private readonly onChange: (state: DiskFullState, full: boolean) => void,
    private readonly everyMs = PROBE_EVERY_MS,
  ) {}

  /** The disk as last looked at while full; null while writes are taken. */
  get full(): DiskFullState | null {
    return this.state;
  }

  /** Writes stop until a look finds room (a second call while full only looks again at the free bytes). */
  enter(): void {
    const dir = dirname(this.dbPath);
    if (this.state) {
      this.state.freeBytes = freeBytesIn(dir);
      return;
    }
    this.state = { dir, freeBytes: freeBytesIn(dir), since: Date.now() };
    this.timer = setInterval(() => this.look(), this.everyMs);
    this.timer.unref();
    this.onChange(this.state, true);
  }

  /** One look; true once writes may resume. */
  look(): boolean {
    if (!this.state) return true;
    this.state.freeBytes = freeBytesIn(this.state.dir);
    if (!roomToResume(this.state.freeBytes, fileBytes(`${this.dbPath}.wal`)) || !canWrite(`${this.dbPath}.space-probe`)) return false;
    const was = this.state;
    this.stop();
    this.state = null;
    this.onChange(was, false);
    return true;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
