/**
 * From `coral ask` start (process spawn) to its first tool call, with the replay provider on the
 * demo colony: the built bundle, events read from --stream. Target (issue 6): <= 700 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.js';

const home = mkdtempSync(join(tmpdir(), 'coral-bench-'));

function once(): Promise<{ firstToolMs: number; totalMs: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let first = -1;
    let buf = '';
    const child = spawn(process.execPath, ['dist/coral.js', 'ask', 'Why are checkouts failing?', '--demo', 'payment-failure', '--stream'], {
      env: { ...process.env, CORAL_HOME: home, HONEYCOMB_API_KEY: '' },
    });
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      if (first < 0 && buf.includes('"type":"tool_call_started"')) first = performance.now() - t;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && first >= 0 ? resolve({ firstToolMs: first, totalMs: performance.now() - t }) : reject(new Error(`exit ${code}`))));
  });
}

const runs: { firstToolMs: number; totalMs: number }[] = [];
for (let i = 0; i < 7; i++) runs.push(await once());
const first = runs.map((r) => r.firstToolMs).sort((a, b) => a - b);
const total = runs.map((r) => r.totalMs).sort((a, b) => a - b);
report({ bench: 'ask_first_tool_call', provider: 'replay:payment-failure', colony: 'demo:payment-failure', p50_ms: Math.round(first[3]), max_ms: Math.round(first[6]), answer_p50_ms: Math.round(total[3]), target_ms: 700, meets_target: first[3] <= 700 });
rmSync(home, { recursive: true, force: true });
