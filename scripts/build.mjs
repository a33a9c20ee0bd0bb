// Bundles the CLI with esbuild. Runs on `npm install` (prepare), so `npm start` needs no build step.
// Lazy sub-commands become their own chunks (splitting), so `coral --help` loads almost nothing.
// The bundle is written beside dist/ and swapped in when complete (dist-swap.mjs): a `coral` linked
// from this checkout keeps working while a build (or `npm test`, which builds) runs.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { clearStaleBuilds, swapIn } from './dist-swap.mjs';
import { inkFastOutput } from './ink-fast-output.mjs';
import { yogaNoFetch } from './yoga-no-fetch.mjs';
import { bundleWorker } from './worker-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
clearStaleBuilds(root);
const next = `dist.next-${process.pid}`;
const started = performance.now();
const nameWorker = await bundleWorker('src/honeycomb/name-worker.ts');
const decodeWorker = await bundleWorker('src/colony/otlp/decode-worker.ts');
const loadWorker = await bundleWorker('src/demo/load-worker.ts');
await build({
  entryPoints: { coral: 'src/cli.ts' },
  outdir: next,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Native bindings cannot be bundled; they load from node_modules at run time. DuckDB's JavaScript
  // API is bundled: loaded from node_modules, Node would resolve its ~60 CommonJS files one by one
  // and scan each for exports (cjs-module-lexer), ~160 ms more CPU before the colony opens.
  external: ['@duckdb/node-bindings', '@napi-rs/keyring'],
  jsx: 'automatic',
  // ink imports react-devtools-core only under DEV=true; the bundle gets an empty stand-in (T8).
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  define: { 'process.env.NODE_ENV': '"production"', __CORAL_NAME_WORKER__: JSON.stringify(nameWorker), __CORAL_DECODE_WORKER__: JSON.stringify(decodeWorker), __CORAL_LOAD_WORKER__: JSON.stringify(loadWorker) },
  banner: { js: "import { createRequire as __coralCreateRequire } from 'node:module'; const require = __coralCreateRequire(import.meta.url);" },
  plugins: [inkFastOutput, yogaNoFetch],
  metafile: true,
  logLevel: 'warning',
});
swapIn(root, next);
console.error(`coral: built dist/coral.js in ${Math.round(performance.now() - started)} ms`);
