import { describeMcpServer, loadConfigFile, projectConfigPath } from '../agent/config.js';
import { isTrusted, recordTrust, splitGated } from '../agent/trust.js';
import { CoralError } from '../core/errors.js';
import { terminalSafe } from '../core/terminal-text.js';
import { maskArgs, maskReference, maskUrl } from '../core/secrets.js';

/** One gated setting in words, secrets masked. */
function describeGated(cfg: Record<string, unknown>, path: string): string {
  let v: unknown = cfg;
  for (const k of path.split('.')) v = (v as Record<string, unknown> | undefined)?.[k];
  if (path === 'mcp_servers' && v && typeof v === 'object') {
    return Object.entries(v as Record<string, Parameters<typeof describeMcpServer>[0]>).map(([name, s]) => `mcp_servers.${name}: ${describeMcpServer(s)}`).join('\n  ');
  }
  const show = (x: unknown): string => {
    if (typeof x === 'string') return /^(env|keyring):\/\//i.test(x) ? maskReference(x) : /^[a-z]+:\/\//i.test(x) ? maskUrl(x) : maskArgs([x])[0];
    if (Array.isArray(x)) return `[${x.map(show).join(', ')}]`;
    if (x && typeof x === 'object') return `{${Object.entries(x).map(([k, y]) => `${k}: ${show(y)}`).join(', ')}}`;
    return String(x);
  };
  return `${path}: ${show(v)}`;
}

/**
 * `coral config trust`: lets this directory's .coral/config.yaml run its MCP servers and use its key
 * references and URLs. Shows what that enables first; `--show` only shows.
 */
export function configTrust(o: { show?: boolean; dir?: string }): void {
  const path = projectConfigPath(o.dir);
  // Read once: what is shown, and the hash trusted, are of the same bytes.
  const { config: cfg, file } = loadConfigFile(path, 'anyone');
  if (!file) throw new CoralError(`No project config at ${path}.`, 'Run coral config trust in the directory that holds .coral/config.yaml.');
  const { gated } = splitGated(cfg);
  const trusted = isTrusted(file);
  // What the file would run is shown exactly, never acted on by the terminal (it is someone else's text).
  const out = (s: string) => process.stdout.write(terminalSafe(s));
  out(`${path} (${trusted ? 'trusted' : 'not trusted'})\n`);
  out(gated.length === 0
    ? 'It runs no program and sends no credential: nothing in it needs trust.\n'
    : `Trusting it lets coral use:\n  ${gated.map((g) => describeGated(cfg as Record<string, unknown>, g)).join('\n  ')}\n`);
  if (o.show) return;
  recordTrust(file);
  out('Trusted. Any change to the file will need `coral config trust` again.\n');
}
