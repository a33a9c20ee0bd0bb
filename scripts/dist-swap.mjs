// Puts a finished build in place of dist/ without a moment where a working dist/ is gone for longer
// than two renames, and never half-written: the old tree is renamed aside, the new one renamed in,
// then the old one removed. Concurrent builds (two `npm test` at once) each swap their own tree.
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const SIDE = /^dist\.(next|old)-(\d+)$/;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Removes the side trees of builds that died before swapping (their process is gone). */
export function clearStaleBuilds(root) {
  for (const name of readdirSync(root)) {
    const m = SIDE.exec(name);
    if (m && Number(m[2]) !== process.pid && !alive(Number(m[2]))) rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** Renames `next` (a sibling of dist/ under root) to dist/, the previous dist/ removed after. */
export function swapIn(root, next, attempts = 20) {
  const dist = join(root, 'dist');
  const old = join(root, `dist.old-${process.pid}`);
  for (let i = 0; ; i++) {
    try {
      renameSync(dist, old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      renameSync(join(root, next), dist);
      break;
    } catch (err) {
      // Another build swapped its tree in between our two renames: set it aside too, and retry.
      if ((err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') || i >= attempts) throw err;
      rmSync(old, { recursive: true, force: true });
    }
  }
  rmSync(old, { recursive: true, force: true });
}
