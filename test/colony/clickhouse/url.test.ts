import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { parseClickHouseUrl } from '../../../src/colony/store/clickhouse/url.js';
import { lit } from '../../../src/colony/store/clickhouse/sql.js';
import { ident } from '../../../src/colony/store/clickhouse/ddl.js';
import { dateTime64 } from '../../../src/colony/store/clickhouse/write.js';

describe('--clickhouse URL', () => {
  it('reads server URLs: user, host, port, database (default otel)', () => {
    expect(parseClickHouseUrl('http://ch.internal:8123/telemetry')).toEqual({ kind: 'http', url: 'http://ch.internal:8123', username: 'default', database: 'telemetry' });
    expect(parseClickHouseUrl('https://reader@ch:8443')).toEqual({ kind: 'http', url: 'https://ch:8443', username: 'reader', database: 'otel' });
    expect(parseClickHouseUrl('http://ch:8123', 'from_config').database).toBe('from_config');
  });

  it('reads chdb:DIR as an embedded engine on that directory', () => {
    expect(parseClickHouseUrl('chdb:./data/ch')).toEqual({ kind: 'chdb', dir: resolve('./data/ch'), database: 'otel' });
  });

  it('refuses a password in the URL, other schemes, paths and empty directories, saying what is accepted', () => {
    expect(() => parseClickHouseUrl('http://u:secret@ch:8123')).toThrow(/password in the URL is refused/);
    expect(() => parseClickHouseUrl('clickhouse://ch:9000')).toThrow(/unsupported scheme/);
    expect(() => parseClickHouseUrl('http://ch:8123/a/b')).toThrow(/one database/);
    expect(() => parseClickHouseUrl('chdb:')).toThrow(/needs a directory/);
    expect(() => parseClickHouseUrl('not a url')).toThrow(/is not a URL/);
  });
});

describe('SQL text', () => {
  it('quotes literals and identifiers so that no value can end the statement', () => {
    expect(lit("it's \\ here")).toBe("'it\\'s \\\\ here'");
    expect(lit(12n)).toBe('toInt64(12)');
    expect(ident('we`ird')).toBe('`we\\`ird`');
    expect(() => lit(Number.NaN)).toThrow();
  });

  it('writes DateTime64(9) values exactly: ticks while they are safe integers, seconds.nanos after', () => {
    expect(dateTime64(0n)).toBe(0);
    expect(dateTime64(1_764_671_400_123_456_789n)).toBe('1764671400.123456789');
    expect(dateTime64(1_764_671_400_000_000_007n)).toBe('1764671400.000000007');
  });
});
