import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { clearStaleBuilds, swapIn } from '../../scripts/dist-swap.mjs';

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'coral-dist-swap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const tree = (name: string, text: string) => {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'coral.js'), text);
};

describe('a build is swapped in, never written over dist/', () => {
  it('replaces dist/ with the finished tree and leaves no side tree', () => {
    tree('dist', 'old');
    tree(`dist.next-${process.pid}`, 'new');
    swapIn(root, `dist.next-${process.pid}`);
    expect(readFileSync(join(root, 'dist', 'coral.js'), 'utf8')).toBe('new');
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('clears the side trees of builds whose process is gone, and only those', () => {
    const dead = 2 ** 22 + 12_345; // above Linux's pid_max default: no such process
    tree(`dist.next-${dead}`, 'x');
    tree(`dist.old-${dead}`, 'x');
    tree(`dist.next-${process.pid}`, 'mine');
    clearStaleBuilds(root);
    expect(readdirSync(root).sort()).toEqual(['dist', `dist.next-${process.pid}`]);
    rmSync(join(root, `dist.next-${process.pid}`), { recursive: true });
  });

  it('the real build: `coral --version` answers every time it is run while scripts/build.mjs rebuilds', async () => {
    const build = spawn(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let done = false;
    const exited = new Promise<number | null>((resolve) => build.on('exit', (code) => ((done = true), resolve(code))));
    const failures: string[] = [];
    let runs = 0;
    // Runs until the build has finished: each run is a check, whatever the machine's speed.
    while (!done) {
      runs++;
      try {
        const { stdout } = await run(process.execPath, ['dist/coral.js', '--version']);
        if (!/^\d+\.\d+\.\d+/.test(stdout)) failures.push(`run ${runs}: ${stdout}`);
      } catch (err) {
        failures.push(`run ${runs}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    expect(await exited).toBe(0);
    expect(failures).toEqual([]);
    expect(runs).toBeGreaterThan(1);
    expect(existsSync('dist/coral.js')).toBe(true);
    expect(readdirSync('.').filter((n) => /^dist\./.test(n))).toEqual([]);
  }, 180_000);
});
