import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs of its own (CI runs as root), or why there is none: the disk-full tests need a disk that fills. */
export function mountTmpfs(sizeMb: number): { dir: string; unmount: () => void } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'coral-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}` };
  }
  return {
    dir,
    unmount: () => {
      // Lazily: an invalidated DuckDB instance's dropped connections hold the file until collected (db.ts reopen).
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/** Fills `dir` with one file until only `leaveBytes` are free; returns the file, whose removal frees the room. */
export function fillDisk(dir: string, leaveBytes: number): string {
  const path = join(dir, 'filler');
  writeFileSync(path, Buffer.alloc(Math.max(0, freeBytes(dir) - leaveBytes)));
  return path;
}
