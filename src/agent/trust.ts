import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { coralHome } from '../core/paths.js';
import { privateDir, writePrivateFile } from '../core/private-files.js';

/**
 * Workspace trust for project config (.coral/config.yaml), the way direnv and VS Code do it: a
 * repository anyone can write must not run programs or send credentials just because the user
 * `cd`s into it. Settings that could (MCP servers, key references, URLs, tokens) stay inert until
 * the user runs `coral config trust`, which remembers the file by path and content hash: any
 * change to the file asks again.
 */

/** Keys whose value runs a program, names a credential or says where requests go. */
const GATED_KEY = /^(mcp_servers|api_keys?|token|tokens|command|args|env|headers|url|urls|api_url|base_url|endpoint)$/;
const isRef = (v: unknown) => typeof v === 'string' && /^(env|keyring):\/\//i.test(v);

/** Whether this key (or its value, a secret reference) needs trust: it could run, send or redirect. */
export function isGatedKey(key: string, value: unknown): boolean {
  return GATED_KEY.test(key) || (Array.isArray(value) ? value.some(isRef) : isRef(value));
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Splits a config value into what is safe from anyone (models, limits) and the dotted paths of what
 * needs trust. Generic on purpose: a key added to the schema later is gated by its name or value.
 */
export function splitGated<T>(config: T): { safe: T; gated: string[] } {
  const gated: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (!isPlain(v)) return v;
    const out: Plain = {};
    for (const [k, child] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (isGatedKey(k, child)) {
        gated.push(p);
        continue;
      }
      out[k] = walk(child, p);
    }
    return out;
  };
  return { safe: walk(config, '') as T, gated };
}

interface TrustRecord {
  sha256: string;
  trusted_at: string;
}

const storePath = (env: NodeJS.ProcessEnv) => join(coralHome(env), 'trusted-projects.json');

function readStore(env: NodeJS.ProcessEnv): Record<string, TrustRecord> {
  try {
    const raw: unknown = JSON.parse(readFileSync(storePath(env), 'utf8'));
    return isPlain(raw) ? (raw as Record<string, TrustRecord>) : {};
  } catch {
    return {};
  }
}

export function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Whether this exact file content at this path was trusted. */
export function isTrusted(configPath: string, content: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return readStore(env)[resolve(configPath)]?.sha256 === contentHash(content);
}

/** Remembers the file's current content as trusted (private file: it lists the user's projects). */
export function recordTrust(configPath: string, env: NodeJS.ProcessEnv = process.env): void {
  const content = readFileSync(configPath, 'utf8');
  const home = coralHome(env);
  privateDir(home);
  const store = { ...readStore(env), [resolve(configPath)]: { sha256: contentHash(content), trusted_at: new Date().toISOString() } };
  writePrivateFile(storePath(env), `${JSON.stringify(store, null, 1)}\n`);
}

const warned = new Set<string>();

/** Says once per process which settings of an untrusted file were ignored, and how to trust it. */
export function warnUntrusted(configPath: string, gated: string[], write: (s: string) => void = (s) => process.stderr.write(s)): void {
  const key = `${configPath}\u0000${gated.join(',')}`;
  if (gated.length === 0 || warned.has(key)) return;
  warned.add(key);
  write(`coral: ${configPath} is not trusted, so these settings are ignored: ${gated.join(', ')}.\n  Review the file, then run \`coral config trust\` in that directory (asked again whenever the file changes).\n`);
}

export function projectTrustState(configPath: string, env: NodeJS.ProcessEnv = process.env): 'absent' | 'trusted' | 'untrusted' {
  if (!existsSync(configPath)) return 'absent';
  return isTrusted(configPath, readFileSync(configPath, 'utf8'), env) ? 'trusted' : 'untrusted';
}
