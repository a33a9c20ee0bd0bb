import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Document, parse, parseDocument } from 'yaml';
import { type ConfigFile, configSchema, globalConfigPath, projectConfigPath } from '../agent/config.js';
import { CoralError } from '../core/errors.js';
import { type SettingsOwner, readSettingsFile } from '../core/settings-file.js';
import { inferModelName } from '../agent/model-names.js';

/**
 * A dotted key as a path. `colonies.<id>.ask...` keeps the colony id whole even when it has dots
 * (a file path, a URL): the id is everything up to the `.ask.` that follows it.
 */
export function keyPath(key: string): string[] {
  const m = /^colonies\.(.+)\.(ask(?:\..+)?)$/.exec(key);
  const parts = m ? ['colonies', m[1], ...m[2].split('.')] : key.split('.');
  if (parts.some((p) => p === '')) throw new CoralError(`Invalid key "${key}".`, 'Keys are dotted paths such as ai.ask.default_model, colony.url or honeycomb.region.');
  return parts;
}

/**
 * A key and value as RFD 030 writes them, moved to where this config reads them, with a note for
 * each move: `ask.default_model` is `ai.ask.default_model`, a bare model name gets its provider.
 */
export function canonicalSetting(key: string, value: string): { key: string; value: string; notes: string[] } {
  const notes: string[] = [];
  let k = key;
  if (/^ask(\.|$)/.test(k)) {
    k = `ai.${k}`;
    notes.push(`${key} is written as ${k} (RFD 030's ask settings live under ai.ask).`);
  }
  let v = value;
  if (/(^|\.)default_model$/.test(k)) {
    const m = inferModelName(value, k);
    if (m.note) notes.push(m.note);
    v = m.model;
  }
  return { key: k, value: v, notes };
}

/** A value as YAML reads it: 12 is a number, true a boolean, [a, b] a list, anything else text. */
export function parseValue(text: string): unknown {
  try {
    const v: unknown = parse(text);
    return v === null || v === undefined ? text : v;
  } catch {
    return text;
  }
}

function validate(path: string, value: unknown): ConfigFile {
  const r = configSchema.safeParse(value ?? {});
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new CoralError(`Not written: ${path} would have invalid settings:\n  ${issues.join('\n  ')}`, 'See `coral config show` for the keys in use; secrets are env://VARIABLE references.');
  }
  return r.data;
}

export function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}

/** The file's text with one key set, comments and order kept; refused (nothing written) when the result is invalid. */
export function setKey(path: string, key: string, value: string, owner: SettingsOwner = 'user'): string {
  const file = readSettingsFile(path, owner);
  const existing = file ? parseDocument(file.text) : null;
  if (existing && existing.errors.length > 0) throw new CoralError(`${path} is not valid YAML: ${existing.errors[0].message.split('\n')[0]}`, 'Fix it by hand first.');
  // An empty file has no contents to set into.
  const doc = existing && existing.contents !== null ? existing : new Document({});
  doc.setIn(keyPath(key), parseValue(value));
  validate(path, doc.toJS());
  return doc.toString();
}

/** `coral config set KEY VALUE`. */
export function configSet(asked: string, given: string, o: { project?: boolean }): void {
  const path = o.project ? projectConfigPath() : globalConfigPath();
  const { key, value, notes } = canonicalSetting(asked, given);
  for (const n of notes) process.stderr.write(`note: ${n}\n`);
  writeAtomically(path, setKey(path, key, value, o.project ? 'anyone' : 'user'));
  process.stdout.write(`${key} = ${value} in ${path}\n`);
}

export type Ask = (question: string, fallback: string) => Promise<string>;

/** Each provider `config init` and the first-run setup offer: its default model and key variable. */
export const PROVIDERS: Record<string, { model: string; keyVar?: string }> = {
  google: { model: 'gemini-2.5-flash', keyVar: 'GEMINI_API_KEY' },
  openai: { model: 'gpt-4o-mini', keyVar: 'OPENAI_API_KEY' },
  anthropic: { model: 'claude-sonnet-4-5', keyVar: 'ANTHROPIC_API_KEY' },
  ollama: { model: 'llama3.2' },
};

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function askUntil(ask: Ask, question: string, fallback: string, ok: (v: string) => boolean, accepted: string): Promise<string> {
  for (;;) {
    const v = (await ask(question, fallback)).trim() || fallback;
    if (ok(v)) return v;
    await ask(`  "${v}" is not accepted: ${accepted}. Press Enter`, '');
  }
}

type AskConfig = NonNullable<NonNullable<ConfigFile['ai']>['ask']>;

/** For a provider of PROVIDERS: its model, and the variable holding its key (never the key), as ai.ask settings. */
export async function askModel(ask: Ask, provider: string): Promise<AskConfig> {
  const p = PROVIDERS[provider];
  const model = await askUntil(ask, `Model name for ${provider}`, p.model, (v) => /^\S+$/.test(v), 'a model name without spaces');
  if (!p.keyVar) return { default_model: `${provider}:${model}` };
  const name = await askUntil(ask, `Environment variable holding the ${provider} API key (the key itself is never written)`, p.keyVar, (v) => VAR_NAME.test(v), 'a variable name such as GEMINI_API_KEY');
  return { default_model: `${provider}:${model}`, api_keys: { [provider]: `env://${name}` } };
}

/**
 * The questions of `coral config init` and the config they lead to. Keys are never asked for: only
 * the name of the environment variable that holds each one, written as env://NAME.
 */
export async function initConfig(ask: Ask, env: NodeJS.ProcessEnv = process.env): Promise<ConfigFile> {
  const cfg: ConfigFile = {};
  const provider = await askUntil(ask, 'Model provider for coral ask and the console (google, openai, anthropic, ollama, none)', 'none', (v) => v === 'none' || v in PROVIDERS, 'google, openai, anthropic, ollama or none');
  if (provider !== 'none') cfg.ai = { ask: await askModel(ask, provider) };
  const hc = await askUntil(ask, 'Honeycomb: use the real API (yes) or the bundled fake environment (no)', 'no', (v) => /^(y|yes|n|no)$/i.test(v), 'yes or no');
  if (/^y/i.test(hc)) {
    const name = await askUntil(ask, 'Environment variable holding the Honeycomb API key', 'HONEYCOMB_API_KEY', (v) => VAR_NAME.test(v), 'a variable name');
    const region = await askUntil(ask, 'Honeycomb region (us, eu)', 'us', (v) => v === 'us' || v === 'eu', 'us or eu');
    cfg.honeycomb = { api_key: `env://${name}`, region: region as 'us' | 'eu' };
  }
  const colony = await askUntil(ask, 'Default colony URL (empty: the colony on this machine, ~/.coral/colony.duckdb or the running `coral colony serve`)', '', (v) => v === '' || /^https?:\/\/\S+$/.test(v), 'an http(s) URL, or empty');
  if (colony) cfg.colony = { url: colony };
  for (const ref of [cfg.ai?.ask?.api_keys, cfg.honeycomb].flatMap((o) => Object.values(o ?? {})).filter((v): v is string => typeof v === 'string' && v.startsWith('env://'))) {
    if (!env[ref.slice(6)]) await ask(`  note: ${ref.slice(6)} is not set in this shell; export it before running coral. Press Enter`, '');
  }
  return validate('the new config', cfg);
}

/** `coral config init`: asks a few questions on a terminal and writes ~/.coral/config.yaml. */
export async function configInit(o: { force?: boolean }): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CoralError('coral config init asks questions, so it needs a terminal (stdin and stdout are not a TTY here).', 'In scripts set keys one by one: coral config set ai.ask.default_model ollama:llama3.2 (secrets as env://VARIABLE).');
  }
  const path = globalConfigPath();
  if (existsSync(path) && !o.force) {
    throw new CoralError(`${path} already exists.`, 'Change single keys with `coral config set KEY VALUE`, or start over with `coral config init --force`.');
  }
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const cfg = await initConfig(async (q, fallback) => rl.question(`${q}${fallback ? ` [${fallback}]` : ''}: `));
    writeAtomically(path, new Document(cfg).toString());
    process.stdout.write(`wrote ${path}\ncheck it with: coral config validate\n`);
  } finally {
    rl.close();
  }
}
