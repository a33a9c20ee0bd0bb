import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { z } from 'zod';
import { CoralError } from '../core/errors.js';
import { coralHome } from '../core/paths.js';
import { privateDir, writePrivateFile } from '../core/private-files.js';
import { readSettingsFile } from '../core/settings-file.js';

/**
 * Before telemetry first leaves the machine for a cloud model, the user says yes once per
 * provider; the answer is remembered in ~/.coral/consents.json. `--yes` answers for scripts.
 */
const file = (env: NodeJS.ProcessEnv) => join(coralHome(env), 'consents.json');
const consentsSchema = z.record(z.string(), z.string());

/** The consents given; the file is the user's own (a consent others could write would send telemetry for them). */
function read(env: NodeJS.ProcessEnv): Record<string, string> {
  const f = readSettingsFile(file(env), 'user');
  if (!f) return {};
  try {
    const r = consentsSchema.safeParse(JSON.parse(f.text));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

export function hasConsent(provider: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return provider in read(env);
}

export function recordConsent(provider: string, env: NodeJS.ProcessEnv = process.env): void {
  privateDir(coralHome(env));
  writePrivateFile(file(env), `${JSON.stringify({ ...read(env), [provider]: new Date().toISOString() }, null, 1)}\n`);
}

export async function ensureConsent(provider: string, o: { yes?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const env = o.env ?? process.env;
  if (hasConsent(provider, env)) return;
  const warning = `Telemetry from your colony (service names, span names and attributes, log lines) will be sent to ${provider}'s cloud API.`;
  if (o.yes) {
    process.stderr.write(`coral: ${warning} (accepted with --yes)\n`);
    recordConsent(provider, env);
    return;
  }
  if (!process.stdin.isTTY) {
    throw new CoralError(warning, `Confirm once with --yes (remembered for ${provider}), or use a local model (ollama:<model>).`);
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question(`${warning}\nContinue and remember this for ${provider}? [y/N] `);
  rl.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new CoralError('Not sent: no consent to use a cloud model.', 'Use ollama:<model> to stay on this machine.');
  recordConsent(provider, env);
}
