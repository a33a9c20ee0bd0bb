import { chmodSync, constants, copyFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CoralError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { PRIVATE_FILE_MODE, privateDir } from '../../core/private-files.js';
import type { WalTail } from './wal-tail.js';

/**
 * A copy of a colony file and its log as they were found, before anything folds or replaces them:
 * `<db>.damaged-<time>/`, the owner's only. The path of the folder.
 */
export function keepDamagedCopy(path: string, now: Date = new Date()): string {
  const dir = privateDir(`${path}.damaged-${now.toISOString().replaceAll(':', '-')}`);
  for (const f of [path, `${path}.wal`]) {
    if (!existsSync(f)) continue;
    const copy = join(dir, basename(f));
    copyFileSync(f, copy, constants.COPYFILE_EXCL);
    chmodSync(copy, PRIVATE_FILE_MODE);
  }
  return dir;
}

/** What DuckDB says when a file or its log cannot be read back (1.5's wording). */
const WAL_DAMAGE = /Corrupt WAL file: entry at byte position (\d+)/;
const FILE_DAMAGE = /Corrupt database file|Could not read enough bytes from file/;
const BLOCK_AT = /block at location (\d+)|from location (\d+)/;

/** DuckDB's refusal of a damaged colony as a CoralError that says what is damaged and what to do; null for other failures. */
export function damageError(path: string, message: string, keep: () => string): CoralError | null {
  const wal = WAL_DAMAGE.exec(message);
  if (!wal && !FILE_DAMAGE.test(message)) return null;
  const kept = keptCopy(keep);
  if (wal) {
    const at = wal[1];
    return new CoralError(
      `The colony's log ${path}.wal is damaged at byte ${at} (its checksum does not match); the colony was left as it was. ${kept}`,
      `The commits before byte ${at} can be recovered: \`truncate -s ${at} ${path}.wal\` keeps them (the log's damaged rest is lost), and the colony then opens with them. Moving ${path}.wal aside instead opens only what was checkpointed before.`,
    );
  }
  const block = BLOCK_AT.exec(message);
  const where = block ? ` at byte ${block[1] ?? block[2]}` : '';
  return new CoralError(
    `The colony file ${path} is damaged${where} (${message.replace(/^IO Error: /, '')}); the colony was left as it was. ${kept}`,
    `A damaged DuckDB file cannot be repaired in place: start a new colony (move ${path} aside, or pass --db NEW.duckdb). Tables whose blocks are intact may still be read from the copy with the duckdb CLI (e.g. \`COPY otel_logs TO 'logs.parquet'\`).`,
  );
}

function keptCopy(keep: () => string): string {
  try {
    return `A copy of the file and its log as found is in ${keep()}.`;
  } catch (err) {
    return `No copy could be kept beside it (${(err as Error).message}): copy it aside before trying to recover it.`;
  }
}

/** What a person should know of a log that ends past its last complete commit; null when it ends at one. */
export function tornLogNote(path: string, tail: WalTail, kept: string | null): string | null {
  if (tail.kind !== 'torn') return null;
  const lost = formatBytes(tail.bytes - tail.intactBytes);
  const what = `The colony's log ${path}.wal ends ${lost} past its last complete commit (a crash during a commit, which was never acknowledged, or a log cut short): the ${tail.commits} commits before were replayed, the rest cannot be.`;
  return kept === null
    ? `${what} The file and its log were only read, not changed.`
    : `${what} A copy of the file and its log as found is in ${kept}.`;
}
