import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { isProcessAlive } from '../core/file-lock.js';
import { isLoopbackHost } from '../core/net.js';
import { writePrivateFile } from '../core/private-files.js';

/**
 * Where a running `coral colony serve` listens, recorded next to its database so that every other
 * command can use it over its API instead of fighting for DuckDB's file lock. The file holds no
 * secret: a token, when the colony requires one, is in a separate file readable by its owner only,
 * always at the path derived from the database (tokenPath), never at a path the record names.
 *
 * The record is someone else's file until proven ours (a cloned repository or a shared folder can
 * hold one): see readOwnRuntime here and runtime-probe.ts for the proof that its process answers.
 */
const runtimeSchema = z.object({
  pid: z.number().int(),
  db: z.string(),
  /** Base URL of OTLP/HTTP and, unless --no-mcp, of /mcp. */
  url: z.string(),
  mcp: z.boolean(),
  otlpGrpc: z.string().nullable(),
  /** Informational: always tokenPath(db) or null; readers derive the path themselves. */
  tokenFile: z.string().nullable(),
  /** Random per start; the colony answers it at RUNTIME_ROUTE, which tells a live record from a stale one. */
  nonce: z.string().min(16),
  startedAt: z.string(),
});

export type ColonyRuntime = z.infer<typeof runtimeSchema>;

export function runtimePath(db: string): string {
  return `${db}.serve.json`;
}

export function tokenPath(db: string): string {
  return `${db}.token`;
}

export function newRuntimeNonce(): string {
  return randomBytes(16).toString('hex');
}

/** Records the running colony; returns the function that removes the record when it stops. */
export function writeRuntime(info: Omit<ColonyRuntime, 'tokenFile' | 'pid' | 'startedAt'>, token: string | undefined): () => void {
  const tokenFile = token ? tokenPath(info.db) : null;
  if (tokenFile && token) {
    // Written aside and renamed over: a leftover (or planted) symlink is replaced, never followed.
    writePrivateFile(tokenFile, `${token}\n`);
  }
  const record: ColonyRuntime = { ...info, pid: process.pid, tokenFile, startedAt: new Date().toISOString() };
  const path = runtimePath(info.db);
  // Private like the colony it describes: it says where a colony holding telemetry listens and which database.
  writePrivateFile(path, `${JSON.stringify(record, null, 2)}\n`);
  return () => {
    const current = readRecord(info.db);
    if (current && current.pid !== process.pid) return;
    rmSync(path, { force: true });
    if (tokenFile) rmSync(tokenFile, { force: true });
  };
}

function readRecord(db: string): ColonyRuntime | null {
  try {
    const r = runtimeSchema.safeParse(JSON.parse(readFileSync(runtimePath(db), 'utf8')));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Why a file at this path is not one this user wrote for itself, or null when it is. */
function notOurs(st: { uid: number; mode: number; isFile(): boolean }, what: string, privateOnly: boolean): string | null {
  if (!st.isFile()) return `${what} is not a regular file`;
  // Windows has no owner uid or group/other mode bits to check; its ACLs keep a user's folder private.
  if (process.platform === 'win32') return null;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `${what} belongs to another user (uid ${st.uid})`;
  if (privateOnly && (st.mode & 0o077) !== 0) return `${what} is readable or writable by others (mode ${(st.mode & 0o777).toString(8)}; coral writes it 600)`;
  if ((st.mode & 0o022) !== 0) return `${what} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/** A record that may name a running colony, or why the one there is not used (null: there is none). */
export type OwnRuntime = { rt: ColonyRuntime; token: string | undefined } | { ignored: string } | null;

/**
 * The record next to this database, if it is ours and says a colony runs: owned by this user, not
 * writable by others, a loopback URL, no token file but coral's own, owned by us with mode 600, a
 * live pid. Only the probe (runtime-probe.ts) proves the process at the URL is that colony.
 */
export function readOwnRuntime(db: string): OwnRuntime {
  const path = runtimePath(db);
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return null;
  }
  const problem = notOurs(st, path, false);
  if (problem) return { ignored: problem };
  const rt = readRecord(db);
  if (!rt) return { ignored: `${path} is not a record coral wrote` };
  if (!isProcessAlive(rt.pid)) return null;
  if (rt.db !== db) return { ignored: `${path} names another database (${rt.db})` };
  let url: URL;
  try {
    url = new URL(rt.url);
  } catch {
    return { ignored: `${path} names no valid URL` };
  }
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return { ignored: `${path} names ${url.origin}, not a colony on this machine (loopback)` };
  if (rt.tokenFile !== null && rt.tokenFile !== tokenPath(db)) return { ignored: `${path} names a token file coral did not write (${rt.tokenFile})` };
  if (rt.tokenFile === null) return { rt, token: undefined };
  const token = readOwnTokenFile(tokenPath(db));
  return typeof token === 'string' ? { rt, token } : token;
}

/** The token file's text when the file is ours and private; never follows a symlink. */
function readOwnTokenFile(path: string): string | { ignored: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ignored: code === 'ELOOP' ? `${path} is a symbolic link` : `${path} cannot be read (${code})` };
  }
  try {
    const problem = notOurs(fstatSync(fd), path, true);
    if (problem) return { ignored: problem };
    const token = readFileSync(fd, 'utf8').trim();
    return token ? token : { ignored: `${path} is empty` };
  } finally {
    closeSync(fd);
  }
}
