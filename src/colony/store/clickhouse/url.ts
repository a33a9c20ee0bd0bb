import { resolve } from 'node:path';
import { CoralError } from '../../../core/errors.js';

/** Where a ClickHouse colony lives: a server over HTTP(S), or an embedded engine (chdb) on a directory. */
export type ClickHouseTarget =
  | { kind: 'http'; url: string; username: string; database: string }
  | { kind: 'chdb'; dir: string; database: string };

export const DEFAULT_DATABASE = 'otel';

const ACCEPTED = 'Accepted: http(s)://[user@]host:8123[/database] (a ClickHouse server) or chdb:DIR (embedded, needs the chdb package).';

/**
 * Parses `--clickhouse URL`. A password never travels in the URL (it would land in shell history
 * and process lists): it comes from config `clickhouse.password` (an env:// reference) or
 * CLICKHOUSE_PASSWORD.
 */
export function parseClickHouseUrl(raw: string, database?: string): ClickHouseTarget {
  const text = raw.trim();
  if (text.startsWith('chdb:')) {
    const dir = text.slice('chdb:'.length);
    if (dir === '') throw new CoralError(`--clickhouse ${raw}: chdb: needs a directory, e.g. chdb:./colony-ch.`, ACCEPTED);
    return { kind: 'chdb', dir: resolve(dir), database: database ?? DEFAULT_DATABASE };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CoralError(`--clickhouse ${raw} is not a URL.`, ACCEPTED);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CoralError(`--clickhouse ${raw}: unsupported scheme ${url.protocol}`, ACCEPTED);
  if (url.password !== '') {
    throw new CoralError('--clickhouse: a password in the URL is refused (it would show in process lists and history).', 'Set config clickhouse.password to env://VARIABLE, or export CLICKHOUSE_PASSWORD.');
  }
  const path = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  if (path.includes('/')) throw new CoralError(`--clickhouse ${raw}: the path names one database, not ${path}.`, ACCEPTED);
  if (url.search !== '' || url.hash !== '') throw new CoralError(`--clickhouse ${raw}: no query string or fragment is accepted.`, ACCEPTED);
  const username = decodeURIComponent(url.username) || 'default';
  return { kind: 'http', url: `${url.protocol}//${url.host}`, username, database: path || database || DEFAULT_DATABASE };
}

/** The target in words, credentials left out. */
export function describeTarget(t: ClickHouseTarget): string {
  return t.kind === 'chdb' ? `chdb:${t.dir}/${t.database}` : `${t.url}/${t.database}`;
}
