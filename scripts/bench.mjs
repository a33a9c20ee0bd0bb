// Runs every bench/*.bench.ts (or those whose name contains an argument) one after another.
// Each prints one JSON line per figure; see the closing notes of the issues for measured values.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const filters = process.argv.slice(2);
const benches = readdirSync(new URL('../bench', import.meta.url))
  .filter((f) => /\.bench\.tsx?$/.test(f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (benches.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}; available: ${readdirSync(new URL('../bench', import.meta.url)).filter((f) => /\.bench\.tsx?$/.test(f)).join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const file of benches) {
  console.error(`# ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
