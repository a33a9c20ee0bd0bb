import { isMainThread } from 'node:worker_threads';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { coralHome } from './paths.js';

/**
 * Everything coral writes that holds telemetry or conversations (colony databases and their WAL,
 * serve records, tokens, conversations, exports) is its owner's only: files 0600, folders 0700.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * A folder created 0700. `tighten` also narrows an existing one (coral's own folders, which an older
 * coral made 0755); a folder the user named keeps the mode they gave it.
 */
export function privateDir(dir: string, o: { tighten?: boolean } = {}): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (o.tighten !== false) chmodSync(dir, PRIVATE_DIR_MODE);
  return dir;
}

/**
 * Narrows a file another program created (DuckDB's database and WAL); a missing file is no error,
 * and another user's file (a colony someone else shared) keeps the mode its owner gave it.
 */
export function makePrivate(path: string): void {
  if (existsSync(path) && statSync(path).uid === process.getuid?.()) chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Writes beside the target (0600 from the first byte), flushes, then renames over it: readers see
 * the old file or the new one, and a leftover 0644 file is replaced by a private one.
 */
export function writePrivateFile(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  // Created, never opened through whatever is there (a planted symlink is removed, not followed).
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * Files other programs create for coral (DuckDB makes and deletes its .wal for as long as a colony is
 * open, chdb its parts) get no mode from us: from here on, this process creates nothing group- or
 * world-readable. Worker threads cannot change the umask; the main thread's applies to them too.
 */
export function usePrivateUmask(): void {
  if (!isMainThread) return;
  // Set and read in one call (umask() without an argument is deprecated), then keep the caller's other bits.
  const before = process.umask(0o077);
  process.umask(before | 0o077);
}

/**
 * Before another program (DuckDB) creates `path` and files beside it: its folder exists (created
 * 0700; ~/.coral itself tightened), and what the program creates is private.
 */
export function prepareForeignPrivateFile(path: string): void {
  const dir = dirname(path);
  privateDir(dir, { tighten: resolve(dir) === resolve(coralHome()) });
  usePrivateUmask();
}
