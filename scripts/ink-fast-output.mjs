// esbuild plugin: ink's Output class and its widest-line, swapped for the cross-frame cached ones in
// components/screen/ (same frames, a fraction of the work per keypress). Fails the build when ink
// no longer imports them as ink 6.8 does, rather than silently shipping the slow path.
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const output = fileURLToPath(new URL('components/screen/ink-output.ts', root));
const widest = fileURLToPath(new URL('components/screen/widest-line.ts', root));
const inInk = (importer) => /[\\/]node_modules[\\/]ink[\\/]build[\\/]/.test(importer);

export const inkFastOutput = {
  name: 'ink-fast-output',
  setup(build) {
    const swapped = new Set();
    build.onResolve({ filter: /^\.\/output\.js$/ }, (args) => {
      if (!inInk(args.importer)) return undefined;
      swapped.add('output');
      return { path: output };
    });
    build.onResolve({ filter: /^widest-line$/ }, (args) => {
      if (!inInk(args.importer)) return undefined;
      swapped.add('widest-line');
      return { path: widest };
    });
    build.onEnd((result) => {
      if (result.errors.length > 0 || !build.initialOptions.bundle) return;
      const usesInk = Object.keys(result.metafile?.inputs ?? {}).some((f) => inInk(f));
      if (usesInk && swapped.size < 2) result.errors.push({ text: `ink-fast-output: ink no longer imports ${['output', 'widest-line'].filter((s) => !swapped.has(s)).join(' and ')} as ink 6.8 did; check components/screen/ink-output.ts against the installed ink` });
    });
  },
};
