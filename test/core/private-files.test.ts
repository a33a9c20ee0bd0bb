import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/colony/store/db.js';
import { newRuntimeNonce, writeRuntime } from '../../src/colony/runtime.js';
import { ConsoleEngine } from '../../src/console/engine.js';

/** Everything that holds telemetry or conversations is its owner's only: files 0600, folders 0700. */
const home = mkdtempSync(join(tmpdir(), 'coral-private-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const mode = (p: string) => statSync(p).mode & 0o777;

describe('private files', () => {
  it('a colony database, its WAL and a new folder for it are private; an older 0644 database is tightened', async () => {
    const path = join(home, 'new-folder', 'colony.duckdb');
    const db = await Database.open({ path, threads: 1, memoryLimit: '256MB' });
    try {
      await db.admin.run(`INSERT INTO coral_meta VALUES ('private-test', 'x')`);
      // DuckDB creates the WAL at the first commit, long after the open.
      expect(existsSync(`${path}.wal`)).toBe(true);
      expect(mode(`${path}.wal`)).toBe(0o600);
      expect(mode(path)).toBe(0o600);
      expect(mode(join(home, 'new-folder'))).toBe(0o700);
    } finally {
      await db.close();
    }
    chmodSync(path, 0o644);
    const again = await Database.open({ path, threads: 1, memoryLimit: '256MB' });
    await again.close();
    expect(mode(path)).toBe(0o600);
  });

  it('the serve record and token are private, a leftover 0644 record included', () => {
    const db = join(home, 'served.duckdb');
    const remove = writeRuntime({ db, url: 'http://127.0.0.1:1', mcp: true, otlpGrpc: null, nonce: newRuntimeNonce() }, 'secret');
    expect(mode(`${db}.serve.json`)).toBe(0o600);
    expect(mode(`${db}.token`)).toBe(0o600);
    chmodSync(`${db}.serve.json`, 0o644);
    writeRuntime({ db, url: 'http://127.0.0.1:1', mcp: true, otlpGrpc: null, nonce: newRuntimeNonce() }, undefined);
    expect(mode(`${db}.serve.json`)).toBe(0o600);
    remove();
  });

  it("the console's :export files are private, in a private folder", () => {
    const dir = join(home, 'exports');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const files = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic' }).exportSession(dir);
    expect(files).toHaveLength(3);
    for (const f of files) expect(mode(f)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
  });
});
