import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { CoralError } from './errors.js';

/** Whether a process exists (EPERM: it does, but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface FileLockOptions {
  /** Give up after this long (default 10 s): the sections this guards take milliseconds. */
  timeoutMs?: number;
  /** A lock older than this is stale even if its pid lives (the pid may have been reused). Default 30 s. */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread: lock sections are short, and a synchronous lock keeps callers' writes synchronous. */
const pause = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

function readOwner(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A holder is "<pid> <nonce>"; an empty file is a holder between its create and its write. */
function isStale(path: string, owner: string, staleMs: number): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (age > staleMs) return true;
  const pid = Number(owner.split(' ')[0]);
  return owner.length > 0 && Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid);
}

/**
 * Moves a stale lock aside, then checks that what moved is the stale holder: if a live process took
 * the lock in between, its file is linked back (link, unlike rename, never replaces one).
 */
function breakStale(path: string, owner: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readOwner(aside) !== owner) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone holds it again already; nothing to restore.
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Runs `fn` holding `<path>.lock`, an exclusive (O_EXCL) lock file naming its holder's pid, so that
 * read-modify-write sections of separate processes never interleave. A lock whose holder died (or
 * older than staleMs) is broken; waiting longer than timeoutMs is an error, never a silent write.
 */
export function withFileLock<T>(path: string, fn: () => T, o: FileLockOptions = {}): T {
  const lock = `${path}.lock`;
  const me = `${process.pid} ${randomBytes(8).toString('hex')}`;
  const deadline = Date.now() + (o.timeoutMs ?? 10_000);
  const staleMs = o.staleMs ?? 30_000;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, me);
      } finally {
        closeSync(fd);
      }
      break;
    }
    const owner = readOwner(lock);
    if (owner !== null && isStale(lock, owner, staleMs)) {
      breakStale(lock, owner);
      continue;
    }
    if (Date.now() > deadline) {
      throw new CoralError(`${lock} is held by another coral (${owner?.split(' ')[0] || 'unknown pid'}) for too long.`, 'If no other coral is running, delete the .lock file.');
    }
    pause(wait + Math.random() * wait);
  }
  try {
    return fn();
  } finally {
    // Only our own lock is removed: one broken as stale and retaken by another is theirs.
    if (readOwner(lock) === me) rmSync(lock, { force: true });
  }
}
