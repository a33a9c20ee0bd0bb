import { createHash } from 'node:crypto';
import { type Stats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { CoralError } from './errors.js';

/**
 * Every settings file coral reads (the user's config, the trust store, the consents, a project's
 * config) is read here, once: the bytes that are hashed are the bytes that are parsed, so a file
 * swapped between two reads cannot be applied under the hash of another (issue 39).
 */

/**
 * The largest settings file read. Real ones are a few KiB; a file past this is not a config someone
 * wrote by hand (a 200 MB one took 11 s and 1.3 GB to parse), so it is refused before it is read.
 */
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

/**
 * Whose file it is. `user`: one the user keeps for themselves (in ~/.coral), which decides what coral
 * runs and trusts, so it must be theirs (or root's) and writable by no one else, like ssh's config.
 * `anyone`: a file that came with a repository, untrusted until its content is (trust.ts).
 */
export type SettingsOwner = 'user' | 'anyone';

export interface SettingsFile {
  path: string;
  bytes: Buffer;
  /** The bytes as UTF-8 (refused when they are not). */
  text: string;
  /** sha256 of `bytes`, hex. */
  sha256: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file's bytes, text and hash from one open, or null when there is none. Opened non-blocking (a
 * FIFO would otherwise wait for a writer forever) and checked on the open descriptor, not by a
 * separate stat that another file could be swapped in behind.
 */
export function readSettingsFile(path: string, owner: SettingsOwner): SettingsFile | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new CoralError(`Cannot read ${path}: ${code ?? (err as Error).message}.`, 'Settings files are regular files coral can read.');
  }
  try {
    const st = fstatSync(fd);
    const problem = settingsFileProblem(path, st, owner, process.getuid?.());
    if (problem) throw problem;
    const bytes = readAtMost(fd, st.size, MAX_SETTINGS_FILE_BYTES);
    // It grew past the limit after its stat.
    if (bytes.length > MAX_SETTINGS_FILE_BYTES) throw tooLarge(path, bytes.length);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new CoralError(`${path} is not UTF-8 text.`, 'Settings files are UTF-8 YAML or JSON.');
    }
    return { path, bytes, text, sha256: createHash('sha256').update(bytes).digest('hex') };
  } finally {
    closeSync(fd);
  }
}

const tooLarge = (path: string, size: number) =>
  new CoralError(`${path} is larger than ${MAX_SETTINGS_FILE_BYTES / 1024 / 1024} MiB (at least ${size} bytes), so it is not read.`, 'A settings file is a few KiB of YAML or JSON: is this the file you meant?');

/** Why a file with these stats is refused for this owner, or null. Pure, for tests. */
export function settingsFileProblem(path: string, st: Pick<Stats, 'uid' | 'mode' | 'size' | 'isFile'>, owner: SettingsOwner, uid: number | undefined): CoralError | null {
  if (!st.isFile()) return new CoralError(`${path} is ${fileKind(st.mode)}, not a regular file, so it is not read.`, 'Settings are read only from a regular file: replace it with one, or remove it.');
  if (st.size > MAX_SETTINGS_FILE_BYTES) return tooLarge(path, st.size);
  // Windows has no owner uid or group/other mode bits here; its ACLs keep a user's folder private.
  if (owner === 'anyone' || uid === undefined || process.platform === 'win32') return null;
  // Root's files are accepted as ssh accepts them: root can change any file anyway.
  if (st.uid !== uid && st.uid !== 0) {
    return new CoralError(`${path} belongs to another user (uid ${st.uid}; you are uid ${uid}): whoever owns it would decide what coral runs as you.`, `Coral reads its own settings only from files owned by you or root: if it is yours, chown ${uid} ${path}; else remove it.`);
  }
  if ((st.mode & 0o022) !== 0) {
    const by = (st.mode & 0o002) !== 0 ? 'everyone' : 'its group';
    return new CoralError(`${path} is writable by ${by} (mode ${(st.mode & 0o777).toString(8)}): whoever can write it would decide what coral runs and trusts as you.`, `chmod 600 ${path} (coral writes it so).`);
  }
  return null;
}

function fileKind(mode: number): string {
  const kinds: [number, string][] = [[constants.S_IFDIR, 'a directory'], [constants.S_IFIFO, 'a FIFO'], [constants.S_IFCHR, 'a character device'], [constants.S_IFBLK, 'a block device'], [constants.S_IFSOCK, 'a socket']];
  return kinds.find(([k]) => (mode & constants.S_IFMT) === k)?.[1] ?? 'a special file';
}

/** Up to limit + 1 bytes (one past: the file grew past the limit after its stat), never more. */
function readAtMost(fd: number, sizeHint: number, limit: number): Buffer {
  let buf = Buffer.allocUnsafe(Math.min(sizeHint, limit) + 1);
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > limit) break;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, limit + 1));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    const got = readSync(fd, buf, n, buf.length - n, null);
    if (got === 0) break;
    n += got;
  }
  return buf.subarray(0, n);
}
