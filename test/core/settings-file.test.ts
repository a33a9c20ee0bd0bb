import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SETTINGS_FILE_BYTES, readSettingsFile, settingsFileProblem } from '../../src/core/settings-file.js';
import { errorOf } from '../support/config-dirs.js';

/** Issue 39 item 5: every settings file is read once, never blocks, never past its limit, and the user's own are theirs. */
const dir = mkdtempSync(join(tmpdir(), 'coral-settings-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Buffer, mode = 0o600) => {
  const p = join(dir, `f${n++}.yaml`);
  writeFileSync(p, content, { mode });
  chmodSync(p, mode);
  return p;
};
const isRoot = process.getuid?.() === 0;
const bytesReadByThisProcess = () => Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

describe('readSettingsFile', () => {
  it('gives the bytes, their text and the hash of exactly those bytes; absent is null', () => {
    const p = file('a: 1\n');
    const f = readSettingsFile(p, 'user');
    expect(f?.text).toBe('a: 1\n');
    expect(f?.bytes.toString('utf8')).toBe(f?.text);
    expect(f?.sha256).toBe(execFileSync('sha256sum', [p], { encoding: 'utf8' }).split(' ')[0]);
    expect(readSettingsFile(join(dir, 'none.yaml'), 'user')).toBeNull();
    expect(readSettingsFile(join(p, 'under-a-file.yaml'), 'user')).toBeNull();
  });

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    const p = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [p]);
    const e = errorOf(() => readSettingsFile(p, 'anyone'));
    expect(e.message).toBe(`${p} is a FIFO, not a regular file, so it is not read.`);
    expect(e.hint).toMatch(/only from a regular file/);
  });

  it('refuses a directory', () => {
    const p = join(dir, 'a-dir.yaml');
    mkdirSync(p);
    expect(errorOf(() => readSettingsFile(p, 'anyone')).message).toBe(`${p} is a directory, not a regular file, so it is not read.`);
  });

  it.runIf(process.platform === 'linux')('refuses a file past 1 MiB without reading it', () => {
    const p = file('');
    truncateSync(p, 200 * 1024 * 1024);
    const before = bytesReadByThisProcess();
    const e = errorOf(() => readSettingsFile(p, 'anyone'));
    expect(bytesReadByThisProcess() - before).toBeLessThan(64 * 1024);
    expect(e.message).toBe(`${p} is larger than 1 MiB (at least ${200 * 1024 * 1024} bytes), so it is not read.`);
    expect(readSettingsFile(file(Buffer.alloc(MAX_SETTINGS_FILE_BYTES, 0x20)), 'anyone')?.bytes.length).toBe(MAX_SETTINGS_FILE_BYTES);
  });

  it('refuses bytes that are not UTF-8, so the text parsed is the bytes hashed', () => {
    const p = file(Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]));
    expect(errorOf(() => readSettingsFile(p, 'anyone')).message).toBe(`${p} is not UTF-8 text.`);
  });

  it("refuses the user's own file when others may write it, naming the fix; a project's file may have any mode", () => {
    const world = file('a: 1\n', 0o666);
    const e = errorOf(() => readSettingsFile(world, 'user'));
    expect(e.message).toBe(`${world} is writable by everyone (mode 666): whoever can write it would decide what coral runs and trusts as you.`);
    expect(e.hint).toBe(`chmod 600 ${world} (coral writes it so).`);
    expect(errorOf(() => readSettingsFile(file('a: 1\n', 0o620), 'user')).message).toMatch(/is writable by its group \(mode 620\)/);
    expect(readSettingsFile(file('a: 1\n', 0o644), 'user')?.text).toBe('a: 1\n');
    expect(readSettingsFile(world, 'anyone')?.text).toBe('a: 1\n');
  });

  it.runIf(isRoot)("refuses the user's own file owned by another user, even to root; a project's file may be anyone's", () => {
    const p = file('a: 1\n', 0o600);
    chownSync(p, 65534, 65534);
    const e = errorOf(() => readSettingsFile(p, 'user'));
    expect(e.message).toBe(`${p} belongs to another user (uid 65534; you are uid 0): whoever owns it would decide what coral runs as you.`);
    expect(e.hint).toBe(`Coral reads its own settings only from files owned by you or root: if it is yours, chown 0 ${p}; else remove it.`);
    expect(readSettingsFile(p, 'anyone')?.text).toBe('a: 1\n');
  });
});

describe('settingsFileProblem', () => {
  const st = (uid: number, mode: number) => ({ uid, mode: 0o100000 | mode, size: 10, isFile: () => true });
  it.runIf(process.platform !== 'win32')('accepts files of the user or root, refuses anyone else for the user', () => {
    expect(settingsFileProblem('f', st(1000, 0o600), 'user', 1000)).toBeNull();
    expect(settingsFileProblem('f', st(0, 0o644), 'user', 1000)).toBeNull();
    expect(settingsFileProblem('f', st(1001, 0o600), 'user', 1000)?.message).toMatch(/belongs to another user \(uid 1001; you are uid 1000\)/);
    expect(settingsFileProblem('f', st(1001, 0o666), 'anyone', 1000)).toBeNull();
    expect(settingsFileProblem('f', { ...st(1000, 0o600), size: MAX_SETTINGS_FILE_BYTES + 1 }, 'anyone', 1000)?.message).toMatch(/larger than 1 MiB/);
  });
});
