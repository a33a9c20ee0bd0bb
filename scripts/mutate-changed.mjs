// npm run mutate:changed [-- BASE]: mutation-tests only the in-scope files changed since BASE (default
// main, plus uncommitted changes), reusing earlier results (--incremental). Scope: stryker.config.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { matchesGlob } from 'node:path';

const base = process.argv[2] ?? 'main';
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
let since;
try {
  since = git('diff', '--name-only', `${git('merge-base', base, 'HEAD')[0]}`);
} catch {
  console.error(`mutate:changed: no git revision "${base}"; pass a branch or commit, e.g. npm run mutate:changed -- main`);
  process.exit(2);
}
const changed = new Set([...since, ...git('ls-files', '--others', '--exclude-standard')]);
const scope = JSON.parse(readFileSync('stryker.config.json', 'utf8')).mutate;
const files = [...changed].filter((f) => existsSync(f) && scope.some((g) => matchesGlob(f, g))).sort();
if (files.length === 0) {
  console.log(`mutate:changed: no file in the mutation scope changed since ${base}.`);
  process.exit(0);
}
console.log(`mutate:changed: ${files.join(', ')}`);
const r = spawnSync('npx', ['stryker', 'run', '--incremental', '--mutate', files.join(',')], { stdio: 'inherit' });
process.exit(r.status ?? 1);
