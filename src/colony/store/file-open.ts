import { existsSync, statSync } from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import { checkColonyFile } from './file-check.js';
import { formatBytes, plural } from '../../core/format.js';
import { keepDamagedCopy, tornLogNote } from './damaged.js';
import { walTailOfFile } from './wal-tail.js';

/**
 * A colony file is data from outside (an incident bundle, a repository), and DuckDB runs what its
 * catalog holds: views and macros in it could read any file the user can (`read_text`), fetch URLs,
 * or load extensions. So DuckDB gets no access beyond the database, its log and its own temporary
 * folder (`<db>.tmp`, which it still spills to), installs and autoloads no extension, and the
 * settings are locked, so that no statement can turn any of this back on. Coral's queries read only
 * its own tables and DuckDB's built-in functions (json included), none of which needs more.
 */
export const ISOLATED_SETTINGS: Readonly<Record<string, string>> = {
  enable_external_access: 'false',
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
  allow_unsigned_extensions: 'false',
  lock_configuration: 'true',
};

/**
 * Whether a colony file is opened with DuckDB's READ_ONLY: by a command that only reads, a log left by
 * a crash is then replayed in memory and left on disk as it was (measured, 1.5), nothing is
 * checkpointed and the file keeps its mode. A file that does not exist yet is created (a new, empty
 * colony) even by a command that only reads.
 */
export function opensReadOnly(path: string, o: { write: boolean }): boolean {
  return !o.write && existsSync(path);
}

/**
 * What a person should know of the log a colony file was opened with (a crash's, one cut short),
 * looked at once DuckDB holds the file's lock (no other writer is appending to it) and before a
 * writer folds it into the file (db.ts), which deletes it. DuckDB replays a log that ends past its
 * last complete commit without a word: a writer first copies such a log aside, so that what it held
 * is not lost with it.
 */
export function logNotes(path: string, o: { readOnly: boolean }): string[] {
  const wal = `${path}.wal`;
  const bytes = existsSync(wal) ? statSync(wal).size : 0;
  if (bytes === 0) return [];
  const tail = walTailOfFile(wal, bytes);
  if (tail.kind === 'clean') {
    return [`The log left by a crash (${plural(tail.commits, 'commit')}, ${formatBytes(bytes)}) was replayed${o.readOnly ? ' in memory; the file and its log were only read' : ' and folded into the file'}.`];
  }
  if (o.readOnly) return [tornLogNote(path, tail, null) ?? unknownLog(path, bytes)];
  const kept = keepDamagedCopy(path);
  return [tornLogNote(path, tail, kept) ?? `${unknownLog(path, bytes)} A copy of the file and its log as found is in ${kept}.`];
}

/**
 * A colony file just opened: refused (and closed) unless it is what coral wrote (file-check.ts);
 * otherwise what a person should know of the log it was opened with.
 */
export async function inspectOpenedFile(instance: DuckDBInstance, path: string, o: { readOnly: boolean }): Promise<string[]> {
  try {
    const conn = await instance.connect();
    try {
      await checkColonyFile(conn, path, o);
    } finally {
      conn.closeSync();
    }
    return logNotes(path, o);
  } catch (err) {
    instance.closeSync();
    throw err;
  }
}

function unknownLog(path: string, bytes: number): string {
  return `The colony's log ${path}.wal (${formatBytes(bytes)}) is of a format this coral cannot check; DuckDB replayed what it could.`;
}
