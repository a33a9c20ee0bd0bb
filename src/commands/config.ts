import { existsSync } from 'node:fs';
import {
  type ConfigFile,
  configLayers,
  describeReference,
  describeSettings,
  globalConfigPath,
  projectConfigPath,
  readConfigFile,
  resolveAskSettings,
  resolveDefaultColony,
  resolveDisabledTools,
  resolveSecret,
} from '../agent/config.js';
import { plainSecretProblems } from '../agent/config-audit.js';
import { honeycombSettingsInEffect } from '../agent/honeycomb-options.js';
import { SECRET_NAME, maskReference, maskUrl } from '../core/secrets.js';
import { CoralError } from '../core/errors.js';
import { defaultColonyDbPath } from '../core/paths.js';
import { jsonForTerminal, terminalSafeDeep } from '../core/terminal-text.js';
import { findCommand, referencedVariables } from './config-checks.js';

/** A secret reference with whether its variable is set; never the value. */
function refState(ref: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (!ref) return ref;
  return describeReference(ref, env);
}

/** Per-colony overrides as written, every reference or secret-named value masked. */
function maskDeep(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (/^https?:\/\//i.test(value)) return maskUrl(value);
    return SECRET_NAME.test(key) || /^(env|keyring):\/\//i.test(value) ? maskReference(value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v, k)]));
  return value;
}

/**
 * Every section of the effective configuration, secrets as references only. Read through the same
 * layers the commands use (configLayers), so what an untrusted project file names shows under
 * `ignored`, never as in effect.
 */
export function configSections(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const { global, project } = configLayers(env, undefined, { quiet: true });
  const colonies: NonNullable<ConfigFile['colonies']> = { ...global.config.colonies, ...project.config.colonies };
  const hc = honeycombSettingsInEffect(env, undefined, true);
  const colony = resolveDefaultColony({ env, quiet: true });
  return {
    files: [global.path, project.path].map((path) => ({ path, present: existsSync(path) })),
    ...(project.ignored.length > 0 ? { ignored: { [`${project.path} (not trusted: run \`coral config trust\` after reading it)`]: project.ignored } } : {}),
    ai: { ask: describeSettings(resolveAskSettings({ env })) },
    colony: env.CORAL_COLONY
      ? { url: env.CORAL_COLONY, from: 'environment (CORAL_COLONY)' }
      : colony
        ? { url: colony.url, token: refState(colony.token, env), from: colony.from }
        : { url: null, from: `none set: commands use ${defaultColonyDbPath(env)}, through the colony serving it when one runs` },
    colonies: maskDeep(colonies),
    honeycomb: {
      api_key: hc.api_key ? refState(hc.api_key, env) : env.HONEYCOMB_API_KEY ? 'HONEYCOMB_API_KEY (set)' : '(none: the bundled fake environment)',
      region: hc.region ?? 'us',
      api_url: hc.api_url ?? (hc.dropped ? `(none: the project's ${maskUrl(hc.dropped)} is used only with its own honeycomb.api_key)` : null),
      cache_ttl_seconds: hc.cache_ttl_seconds ?? null,
    },
    tools: { disabled: [...resolveDisabledTools({ env, quiet: true })] },
  };
}

const scalar = (v: unknown) => (v === null ? '(none)' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

/** Indented YAML-like text: one key per line, nested objects indented, arrays inline. */
function toText(value: unknown, indent = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${indent}${scalar(value)}`];
  const lines: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      if (Object.keys(v).length === 0) lines.push(`${indent}${k}: (none)`);
      else lines.push(`${indent}${k}:`, ...toText(v, `${indent}  `));
    } else lines.push(`${indent}${k}: ${scalar(v)}`);
  }
  return lines;
}

/** `coral config show`: the effective settings and their origin, secrets masked. */
export function configShow(o: { json?: boolean }): void {
  const found = configSections();
  if (o.json) {
    process.stdout.write(`${jsonForTerminal(found, 2)}\n`);
    return;
  }
  // A project's config file is someone else's text: shown, never acted on by the terminal.
  const { files, ...rest } = terminalSafeDeep(found) as { files: { path: string; present: boolean }[] };
  const lines = [`config files: ${files.map((f) => `${f.path}${f.present ? '' : ' (absent)'}`).join(', ')}`, ...toText(rest)];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Every problem in the configuration: files that do not parse, references to unset variables, MCP commands not found. */
export function configProblems(env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = [];
  const files: ConfigFile[] = [];
  for (const [path, owner] of [[globalConfigPath(env), 'user'], [projectConfigPath(), 'anyone']] as const) {
    try {
      const file = readConfigFile(path, owner);
      problems.push(...plainSecretProblems(file, path));
      files.push(file);
    } catch (err) {
      problems.push(`${(err as Error).message}`);
    }
  }
  if (problems.length > 0) return problems;
  for (const [where, ref] of referencedVariables(files)) {
    try {
      resolveSecret(ref, env);
    } catch (err) {
      problems.push(`${where}: ${(err as CoralError).message}`);
    }
  }
  for (const [name, cfg] of Object.entries(resolveAskSettings({ env }).mcpServers)) {
    if ('command' in cfg && !findCommand(cfg.command, env)) {
      problems.push(`mcp_servers.${name}.command: "${cfg.command}" is not found${cfg.command.includes('/') ? '' : ' on PATH'}; the agent would start without its tools.`);
    }
  }
  return problems;
}

/** `coral config validate`: both files parse, every key is known, every reference and command resolves. */
export function configValidate(o: { json?: boolean } = {}): void {
  const problems = configProblems();
  if (o.json) {
    process.stdout.write(`${jsonForTerminal({ valid: problems.length === 0, problems }, 2)}\n`);
    if (problems.length > 0) process.exitCode = 1;
    return;
  }
  if (problems.length > 0) throw new CoralError(`The configuration has problems:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.stdout.write('configuration is valid\n');
}
