// esbuild plugin: yoga-layout (ink's layout engine) carries its WebAssembly as a base64 data: URL and,
// wherever fetch exists, reads it back with fetch, which loads Node's whole HTTP client (undici):
// ~50 ms of CPU before the first frame. Patched to take its own fallback, decoding the base64
// directly. Fails the build when yoga no longer reads its binary that way, rather than silently
// shipping the slow path.
import { readFile } from 'node:fs/promises';

const FETCH_CHECK = '"function"!=typeof fetch';

export const yogaNoFetch = {
  name: 'yoga-no-fetch',
  setup(build) {
    build.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const found = source.split(FETCH_CHECK).length - 1;
      if (found !== 2) return { errors: [{ text: `yoga-no-fetch: expected 2 fetch checks in ${args.path}, found ${found}; check scripts/yoga-no-fetch.mjs against the installed yoga-layout` }] };
      return { contents: source.replaceAll(FETCH_CHECK, 'true'), loader: 'js' };
    });
  },
};
