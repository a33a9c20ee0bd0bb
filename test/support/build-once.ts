import { execFileSync } from 'node:child_process';

/** vitest global setup: the CLI tests run the real bundle, so build it from the current source first. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
