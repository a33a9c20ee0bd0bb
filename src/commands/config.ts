import { existsSync } from 'node:fs';
import { describeSettings, globalConfigPath, projectConfigPath, readConfigFile, resolveAskSettings, resolveSecret } from '../agent/config.js';
import { plainSecretProblems } from '../agent/config-audit.js';
import { CoralError } from '../core/errors.js';

/** `coral config show`: the effective settings and their origin, secrets masked. */
export function configShow(o: { json?: boolean }): void {
  const d = describeSettings(resolveAskSettings());
  if (o.json) {
    process.stdout.write(`${JSON.stringify(d, null, 2)}\n`);
    return;
  }
  const files = [globalConfigPath(), projectConfigPath()].map((p) => `${p}${existsSync(p) ? '' : ' (absent)'}`);
  process.stdout.write(`config files: ${files.join(', ')}\n${JSON.stringify(d, null, 2)}\n`);
}

/** `coral config validate`: both files parse, every key is known, every key reference resolves. */
export function configValidate(): void {
  const problems: string[] = [];
  for (const path of [globalConfigPath(), projectConfigPath()]) {
    try {
      problems.push(...plainSecretProblems(readConfigFile(path), path));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length === 0) {
    const s = resolveAskSettings();
    for (const [provider, ref] of Object.entries(s.apiKeys)) {
      try {
        if (ref) resolveSecret(ref);
      } catch (err) {
        problems.push(`api_keys.${provider}: ${(err as CoralError).message} ${(err as CoralError).hint ?? ''}`.trim());
      }
    }
  }
  if (problems.length > 0) throw new CoralError(`The configuration has problems:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.stdout.write('configuration is valid\n');
}
