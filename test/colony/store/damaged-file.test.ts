/**
 * Damaged colony files and crash logs: a command that only reads changes nothing (the log a crash
 * left stays, the file keeps its mode), a log cut short is said and copied aside before a writer
 * folds it in, and a damaged log or file is refused with what is damaged and how to recover.
 */
import { execFile } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'coral-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const mode = (path: string) => statSync(path).mode & 0o777;
const open = (path: string, readOnly: boolean) => ColonyStore.open({ path, threads: 1, memoryLimit: '512MB', readOnly });
const copiesOf = (path: string) => readdirSync(dir).filter((f) => f.startsWith(`${path.split('/').pop()}.damaged-`));

/** A colony killed by SIGKILL after `commits` commits of 100 spans each, all only in its log. */
function crashed(name: string, commits: number): Promise<string> {
  const path = join(dir, name);
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../support/crash-writer.ts'), path, String(commits * 100), String(commits)]);
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(path) : reject(new Error(`the crash writer ended by ${signal}`))));
  });
}

describe('a damaged colony', { timeout: 90_000 }, () => {
  it('opened only to be read keeps the log a crash left, and its mode', async () => {
    const path = await crashed('crash.duckdb', 20);
    chmodSync(path, 0o644);
    const wal = size(`${path}.wal`);
    const store = await open(path, true);
    try {
      expect((await store.counts()).spans).toBe(2000);
      expect(store.notes).toEqual([expect.stringMatching(/^The log left by a crash \(\d+ commits, .*\) was replayed in memory; the file and its log were only read\.$/)]);
    } finally {
      await store.close();
    }
    expect(size(`${path}.wal`)).toBe(wal);
    expect(mode(path)).toBe(0o644);
  });

  it('whose log was cut to half says so, and a writer keeps a copy before folding the log in', async () => {
    const path = await crashed('torn.duckdb', 40);
    const half = Math.floor(size(`${path}.wal`) / 2);
    truncateSync(`${path}.wal`, half);
    const reader = await open(path, true);
    const kept = (await reader.counts()).spans;
    expect(kept).toBeLessThan(4000);
    expect(reader.notes[0]).toMatch(new RegExp(`^The colony's log ${path}.wal ends .* past its last complete commit \\(a crash during a commit, which was never acknowledged, or a log cut short\\): the \\d+ commits before were replayed, the rest cannot be\\. The file and its log were only read, not changed\\.$`));
    await reader.close();
    expect(size(`${path}.wal`)).toBe(half);
    expect(copiesOf(path)).toEqual([]);

    const writer = await open(path, false);
    try {
      expect((await writer.counts()).spans).toBe(kept);
      const [copy] = copiesOf(path);
      expect(writer.notes[0]).toContain(`A copy of the file and its log as found is in ${join(dir, copy)}.`);
      expect(mode(join(dir, copy))).toBe(0o700);
      expect(size(join(dir, copy, 'torn.duckdb.wal'))).toBe(half);
      expect(mode(join(dir, copy, 'torn.duckdb.wal'))).toBe(0o600);
      expect(size(`${path}.wal`)).toBe(0);
    } finally {
      await writer.close();
    }
  });

  it('whose log is corrupt is refused with the byte, a copy, and a recovery that keeps the commits before it', async () => {
    const path = await crashed('corrupt-log.duckdb', 20);
    const fd = openSync(`${path}.wal`, 'r+');
    writeSync(fd, Buffer.alloc(8, 0x5a), 0, 8, Math.floor(size(`${path}.wal`) / 2));
    closeSync(fd);
    const err = await open(path, true).catch((e: Error & { hint?: string }) => e);
    const at = /damaged at byte (\d+)/.exec((err as Error).message)?.[1];
    expect(err).toMatchObject({ name: 'CoralError', message: expect.stringMatching(/^The colony's log .*\.wal is damaged at byte \d+ \(its checksum does not match\); the colony was left as it was\. A copy of the file and its log as found is in /) });
    expect((err as { hint: string }).hint).toContain(`\`truncate -s ${at} ${path}.wal\` keeps them`);
    expect(copiesOf(path)).toHaveLength(1);
    truncateSync(`${path}.wal`, Number(at));
    const store = await open(path, true);
    try {
      const spans = (await store.counts()).spans;
      expect(spans).toBeGreaterThan(0);
      expect(spans).toBeLessThan(2000);
    } finally {
      await store.close();
    }
  });

  it('whose file has a corrupt block is refused with where, a copy, and what can be done', async () => {
    const path = join(dir, 'corrupt-file.duckdb');
    await (await open(path, false)).close();
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, 3 * 4096 + 100);
    closeSync(fd);
    const err = await open(path, true).catch((e: Error & { hint?: string }) => e);
    expect(err).toMatchObject({
      name: 'CoralError',
      message: expect.stringMatching(new RegExp(`^The colony file ${path} is damaged at byte 12288 \\(Corrupt database file: .*\\); the colony was left as it was\\. A copy of the file and its log as found is in `)),
      hint: expect.stringContaining('start a new colony'),
    });
    expect(copiesOf(path)).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() !== 0)("another user's file keeps its owner's mode when opened", async () => {
    const path = join(dir, 'theirs.duckdb');
    await (await open(path, false)).close();
    chmodSync(path, 0o644);
    const { chownSync } = await import('node:fs');
    chownSync(path, 65534, 65534);
    await (await open(path, false)).close();
    expect(mode(path)).toBe(0o644);
  });
});
