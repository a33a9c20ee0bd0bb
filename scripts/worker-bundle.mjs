// A worker thread's code as one CommonJS text, for new Worker(code, { eval: true }): the column-search,
// OTLP decode and demo load workers then need no file next to whichever chunk starts them.
import { build } from 'esbuild';

export async function bundleWorker(entry) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return out.outputFiles[0].text;
}
