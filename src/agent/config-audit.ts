import { isPlainSecretEnv, secretArgIndices } from '../core/secrets.js';
import type { ConfigFile } from './config.js';

/**
 * Plain-text secrets where a reference belongs: `mcp_servers.*.env` values and `args`. The config
 * file is read by anyone who can read the repository or the home folder; a reference is not.
 * Problems name the place, never the value.
 */
export function plainSecretProblems(cfg: ConfigFile, file: string): string[] {
  const problems: string[] = [];
  for (const [name, server] of Object.entries(cfg.mcp_servers ?? {})) {
    if (!('command' in server)) continue;
    for (const [k, v] of Object.entries(server.env ?? {})) {
      if (isPlainSecretEnv(k, v)) problems.push(`${file}: mcp_servers.${name}.env.${k} holds a plain-text secret; write env://VARIABLE and export the value in that variable.`);
    }
    for (const i of secretArgIndices(server.args ?? [])) {
      problems.push(`${file}: mcp_servers.${name}.args[${i}] looks like a plain-text secret; pass it through env (mcp_servers.${name}.env.NAME: env://VARIABLE) instead.`);
    }
  }
  return problems;
}
