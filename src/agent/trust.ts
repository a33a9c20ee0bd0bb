import { join, resolve } from 'node:path';
import { z } from 'zod';
import { coralHome } from '../core/paths.js';
import { privateDir, writePrivateFile } from '../core/private-files.js';
import { type SettingsFile, readSettingsFile } from '../core/settings-file.js';

/**
 * Workspace trust for project config (.coral/config.yaml), the way direnv and VS Code do it: a
 * repository anyone can write must not run programs or send credentials just because the user
 * `cd`s into it. Settings that could (MCP servers, key references, URLs, tokens) stay inert until
 * the user runs `coral config trust`, which remembers the file by path and the hash of the bytes it
 * showed: any change to the file asks again. The hash is of the very bytes parsed (one read,
 * settings-file.ts), so a group- or world-writable project file needs no rule of its own: whatever
 * another user writes into it is new content, untrusted until the user trusts it.
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

/** One trusted file; the store is the user's own (settings-file.ts checks its owner and mode). */
const recordSchema = z.object({ sha256: z.string(), trusted_at: z.string() });
type TrustRecord = z.infer<typeof recordSchema>;

const storePath = (env: NodeJS.ProcessEnv) => join(coralHome(env), 'trusted-projects.json');

/** The records as stored; one of another shape trusts nothing, and is dropped at the next write. */
function readStore(env: NodeJS.ProcessEnv): Record<string, TrustRecord> {
  const file = readSettingsFile(storePath(env), 'user');
  if (!file) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(file.text);
  } catch {
    return {};
  }
  if (!isPlain(raw)) return {};
  return Object.fromEntries(Object.entries(raw).flatMap(([path, v]) => {
    const r = recordSchema.safeParse(v);
    return r.success ? [[path, r.data]] : [];
  }));
}

/** A project file as read once: where it is and the hash of the bytes parsed or shown. */
export type ReadProjectFile = Pick<SettingsFile, 'path' | 'sha256'>;

/** Whether these exact bytes at this path were trusted. */
export function isTrusted(file: ReadProjectFile, env: NodeJS.ProcessEnv = process.env): boolean {
  return readStore(env)[resolve(file.path)]?.sha256 === file.sha256;
}

/** Remembers the bytes the user reviewed as trusted (private file: it lists the user's projects). */
export function recordTrust(reviewed: ReadProjectFile, env: NodeJS.ProcessEnv = process.env): void {
  privateDir(coralHome(env));
  const store = { ...readStore(env), [resolve(reviewed.path)]: { sha256: reviewed.sha256, trusted_at: new Date().toISOString() } };
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
