// `npm pack` / `npm publish`: the packed package.json leaves out `prepare`. A tarball ships its built
// dist/ and never needs it, and npm's install-script check would otherwise ask every user of
// `npm install -g ./coral-console-*.tgz` to approve it. prepack strips it (keeping the file aside),
// postpack puts the file back as it was.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../package.json.unpacked', import.meta.url);

if (process.argv[2] === 'strip') {
  if (!existsSync(kept)) renameSync(manifest, kept);
  const pkg = JSON.parse(readFileSync(kept, 'utf8'));
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (process.argv[2] === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  throw new Error('usage: node scripts/pack-manifest.mjs strip|restore');
}
