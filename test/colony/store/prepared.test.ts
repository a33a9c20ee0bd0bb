import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PreparedStatements } from '../../../src/colony/store/prepared.js';

describe('PreparedStatements', () => {
  let instance: DuckDBInstance;
  let conns: DuckDBConnection[];

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    conns = [await instance.connect(), await instance.connect()];
    await conns[0].run('CREATE TABLE t (x INTEGER)');
  });
  afterAll(() => {
    for (const c of conns) c.closeSync();
    instance.closeSync();
  });

  it('prepares each statement once per connection and runs it every time', async () => {
    const statements = new PreparedStatements();
    const prepares = conns.map((c) => vi.spyOn(c, 'prepare'));
    for (let i = 0; i < 3; i++) for (const c of conns) await statements.run(c, 'INSERT INTO t VALUES (1)');
    await statements.run(conns[0], 'INSERT INTO t VALUES (2)');
    expect(prepares.map((p) => p.mock.calls.length)).toEqual([2, 1]);
    expect((await conns[0].runAndReadAll('SELECT x, count(*)::INT AS n FROM t GROUP BY x ORDER BY x')).getRows()).toEqual([[1, 6], [2, 1]]);
    for (const p of prepares) p.mockRestore();
  });

  it('prepares again a statement that failed to prepare, and says why it failed', async () => {
    const statements = new PreparedStatements();
    await expect(statements.run(conns[0], 'INSERT INTO later VALUES (1)')).rejects.toThrow(/later/);
    await conns[0].run('CREATE TABLE later (x INTEGER)');
    await statements.run(conns[0], 'INSERT INTO later VALUES (1)');
    expect((await conns[0].runAndReadAll('SELECT count(*)::INT FROM later')).getRows()).toEqual([[1]]);
  });

  it('runs a prepared statement against the table as it is now, after the table was replaced', async () => {
    const statements = new PreparedStatements();
    await conns[0].run('CREATE TABLE r (x INTEGER)');
    await statements.run(conns[0], 'INSERT INTO r (x) SELECT 1');
    await conns[0].run('DROP TABLE r');
    await conns[0].run("CREATE TABLE r (x INTEGER, y VARCHAR DEFAULT 'new')");
    await statements.run(conns[0], 'INSERT INTO r (x) SELECT 1');
    expect((await conns[0].runAndReadAll('SELECT x, y FROM r')).getRows()).toEqual([[1, 'new']]);
  });
});
