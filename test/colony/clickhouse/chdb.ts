import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * chdb (embedded ClickHouse, ~550 MB) is never a dependency: `.ci/run` installs it into .cache/chdb
 * and these tests find it there. Without it they skip, saying why.
 */
export const CHDB_DIR = resolve(import.meta.dirname, '../../../.cache/chdb/node_modules');
export const HAVE_CHDB = existsSync(join(CHDB_DIR, 'chdb/package.json'));
export const SKIP_REASON = `chdb is not installed under ${CHDB_DIR} (npm run chdb installs it there; .ci/run does it)`;

// Without chdb no file says so: the run's summary does, once, with how to include them (summary-reporter.ts).
if (HAVE_CHDB) process.env.CORAL_CHDB_PATH = CHDB_DIR;
