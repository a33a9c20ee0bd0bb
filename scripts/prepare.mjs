// `npm install` in a checkout runs this (prepare): build the bundle. A production install from a
// checkout (`npm ci --omit=dev`) has no esbuild, a dev dependency: say so and how to get a working
// coral, instead of failing the install on a missing module. A packed tarball never runs it (its
// dist/ is built).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url);
let hasEsbuild = true;
try {
  createRequire(import.meta.url).resolve('esbuild');
} catch {
  hasEsbuild = false;
}
if (hasEsbuild) {
  await import('./build.mjs');
} else if (existsSync(new URL('dist/coral.js', root))) {
  console.error('coral: esbuild is not installed (dev dependencies omitted): keeping the existing dist/ build.');
} else {
  console.error(
    'coral: not built: esbuild is a dev dependency, omitted here, and there is no dist/ yet.\n' +
      '  Build first, then drop the dev dependencies: npm ci && npm prune --omit=dev\n' +
      '  or pack the CLI (with dev dependencies) and install that: npm ci && npm pack, then npm install -g ./coral-console-*.tgz',
  );
}
