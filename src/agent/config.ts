import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { CoralError } from '../core/errors.js';
import { coralHome } from '../core/paths.js';
import { type SettingsFile, type SettingsOwner, readSettingsFile } from '../core/settings-file.js';
import { MASK, maskArgs, maskReference, maskUrl } from '../core/secrets.js';
import { isTrusted, splitGated, warnUntrusted } from './trust.js';
import { mergePaired } from './paired-settings.js';
import { migrateConfig, recordNotes } from './config-compat.js';
import { readKeyring } from './keyring.js';
import { inferModelName } from './model-names.js';

/**
 * Configuration for `coral ask` and the console: ~/.coral/config.yaml (CORAL_HOME moves it), a
 * project .coral/config.yaml, and per-colony overrides. Secrets are references (env://VAR), never
 * values: a plain-text key is refused with the form to use instead.
 *
 * Precedence, highest first: command-line flags > environment (CORAL_ASK_MODEL,
 * CORAL_ASK_FALLBACK_MODELS) > project > colony (colonies.<id>.ask) > global > built-in.
 */
const MODEL = /^(google|openai|anthropic|ollama|replay|triage):.+$/;
const modelName = z.string().regex(MODEL, { error: 'a model is provider:model, e.g. google:gemini-2.5-flash, openai:gpt-4o-mini, ollama:llama3.2, replay:payment-failure' });
const secretRef = z.string().refine((v) => v.startsWith('env://') || v.startsWith('keyring://'), {
  error: 'API keys are references, not values: write env://VARIABLE (e.g. env://GEMINI_API_KEY) and export the key in that variable',
});

const askShape = {
  default_model: modelName.optional(),
  fallback_models: z.array(modelName).optional(),
  api_keys: z.object({ google: secretRef.optional(), openai: secretRef.optional(), anthropic: secretRef.optional() }).strict().optional(),
  max_tool_rounds: z.number().int().min(1).max(50).optional(),
  conversation: z.object({
    max_turns: z.number().int().min(1).max(1000).optional(),
    context_window: z.number().int().min(1000).optional(),
    auto_prune: z.boolean().optional(),
  }).strict().optional(),
};
const askSchema = z.object(askShape).strict();

/** Extra MCP servers whose tools the agent may use: a command over stdio, or a Streamable HTTP URL. */
const mcpServer = z.union([
  z.object({ command: z.string().min(1), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }).strict(),
  z.object({ url: z.url({ error: 'url must be an http(s) URL' }), token: secretRef.optional() }).strict(),
], { error: 'an MCP server is {command, args?, env?} (stdio) or {url, token?} (Streamable HTTP)' });

/** The Honeycomb tools' settings: the key only as a reference, like every secret. */
const honeycombSchema = z.object({
  api_key: secretRef.optional(),
  region: z.enum(['us', 'eu'], { error: 'region must be us or eu' }).optional(),
  api_url: z.url({ error: 'api_url must be an http(s) URL' }).optional(),
  cache_ttl_seconds: z.number().int().min(0).max(86_400).optional(),
}).strict();

export type HoneycombSettings = z.infer<typeof honeycombSchema>;

/** The colony commands use when none is named: a running colony's URL (CORAL_COLONY overrides it). */
const colonySchema = z.object({
  url: z.url({ error: 'colony.url must be an http(s) URL, e.g. http://127.0.0.1:4318' }),
  token: secretRef.optional(),
}).strict();

export type DefaultColonySettings = z.infer<typeof colonySchema>;

const tableName = z.string().regex(/^[A-Za-z0-9_.-]+$/, { error: 'table names are letters, digits, _, . and -' });

/** A ClickHouse colony (tables the OpenTelemetry Collector's exporter writes): used when no --db/--colony is named. */
const clickhouseSchema = z.object({
  url: z.string().refine((v) => /^(https?:\/\/|chdb:)/.test(v), { error: 'clickhouse.url is http(s)://[user@]host:8123[/database] or chdb:DIR' }).optional(),
  password: secretRef.optional(),
  database: tableName.optional(),
  tables: z.object({ traces: tableName, logs: tableName, gauge: tableName, sum: tableName, histogram: tableName }).partial().strict().optional(),
  /** May coral add MATERIALIZED columns and a registry table fed by materialized views (default true)? */
  materialize: z.boolean().optional(),
  /** May coral keep the spans in trace order too, for trace reads (a projection, about the traces' size again; default: in a chdb directory only)? */
  trace_projection: z.boolean().optional(),
}).strict();

export type ClickHouseSettings = z.infer<typeof clickhouseSchema>;

export const configSchema = z.object({
  ai: z.object({ ask: askSchema.optional() }).strict().optional(),
  colony: colonySchema.optional(),
  clickhouse: clickhouseSchema.optional(),
  honeycomb: honeycombSchema.optional(),
  colonies: z.record(z.string(), z.object({ ask: askSchema.optional() }).strict()).optional(),
  mcp_servers: z.record(z.string(), mcpServer).optional(),
  /** Tools left out of what the model sees and of the MCP servers coral serves, by name (any server's). */
  tools: z.object({ disabled: z.array(z.string().min(1)).optional() }).strict().optional(),
}).strict();

export type McpServerConfig = z.infer<typeof mcpServer>;

export type ConfigFile = z.infer<typeof configSchema>;
type Ask = z.infer<typeof askSchema>;

/** The settings a turn runs with, after precedence. */
export interface AskSettings {
  model: string | null;
  fallbackModels: string[];
  apiKeys: { google?: string; openai?: string; anthropic?: string };
  maxToolRounds: number;
  maxTurns: number;
  contextWindow: number;
  autoPrune: boolean;
  /** Extra MCP servers (global and project files merged; the project wins a name). */
  mcpServers: Record<string, McpServerConfig>;
  /** Where each setting came from, for `coral config show`. */
  origin: Record<string, string>;
}

export const BUILT_IN = { maxToolRounds: 8, maxTurns: 20, contextWindow: 128_000, autoPrune: true };

export function globalConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(coralHome(env), 'config.yaml');
}

export function projectConfigPath(cwd: string = process.cwd()): string {
  return join(cwd, '.coral', 'config.yaml');
}

/** One config file as read once: its settings and the bytes they were parsed from (null: no file). */
export interface LoadedConfig {
  config: ConfigFile;
  file: SettingsFile | null;
}

/**
 * Reads one config file once and validates it; absent is empty, invalid is a clear error naming the
 * file and key. `owner` is 'user' for the user's own file, 'anyone' for a project's (settings-file.ts).
 */
export function loadConfigFile(path: string, owner: SettingsOwner): LoadedConfig {
  const file = readSettingsFile(path, owner);
  return { config: file ? parseConfig(path, file.text) : {}, file };
}

export function readConfigFile(path: string, owner: SettingsOwner): ConfigFile {
  return loadConfigFile(path, owner).config;
}

function parseConfig(path: string, text: string): ConfigFile {
  let raw: unknown;
  try {
    raw = parse(text) ?? {};
  } catch (err) {
    throw new CoralError(`${path} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const migrated = migrateConfig(raw);
  if (migrated.refused.length > 0) throw new CoralError(`${path} has settings from Coral's RFD 030 that cannot be used here:\n  ${migrated.refused.join('\n  ')}`);
  recordNotes(migrated.notes.map((n) => `${path}: ${n}`));
  raw = migrated.config;
  const r = configSchema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new CoralError(`${path} has invalid settings:\n  ${issues.join('\n  ')}`, 'Known keys: ai.ask.{default_model, fallback_models, api_keys.{google,openai,anthropic}, max_tool_rounds, conversation.{max_turns, context_window, auto_prune}}, colony.{url, token}, clickhouse.{url, password, database, tables.{traces, logs, gauge, sum, histogram}, materialize, trace_projection}, colonies.<id>.ask, mcp_servers.<name>.{command, args, env | url, token}, honeycomb.{api_key, region, api_url, cache_ttl_seconds}, tools.disabled.');
  }
  return r.data;
}

/** One config file as it may act, for every setting: the one place project trust is applied. */
export interface ConfigLayer {
  /** "global (PATH)" or "project (PATH)", as config show prints origins. */
  from: string;
  path: string;
  config: ConfigFile;
  /** Dotted keys present in the file but ignored because the project is not trusted. */
  ignored: string[];
}

/**
 * The user's file whole, and the project file whole when the user trusted this content (`coral
 * config trust`), else without what runs programs, sends credentials or picks an endpoint (see
 * trust.ts), with a one-time warning. Every resolve* below reads through this.
 */
export function configLayers(env: NodeJS.ProcessEnv = process.env, cwd?: string, o: { quiet?: boolean } = {}): { global: ConfigLayer; project: ConfigLayer } {
  const globalPath = globalConfigPath(env);
  const path = projectConfigPath(cwd);
  const global: ConfigLayer = { from: `global (${globalPath})`, path: globalPath, config: readConfigFile(globalPath, 'user'), ignored: [] };
  // Parsed and hashed from the same bytes: a file swapped in between cannot borrow the trusted one's hash.
  const { config, file } = loadConfigFile(path, 'anyone');
  const project: ConfigLayer = { from: `project (${path})`, path, config, ignored: [] };
  if (!file) return { global, project };
  const { safe, gated } = splitGated(config);
  if (gated.length === 0 || isTrusted(file, env)) return { global, project };
  if (!o.quiet) warnUntrusted(path, gated);
  return { global, project: { ...project, config: safe, ignored: gated } };
}

export interface ResolveInputs {
  flags?: { model?: string };
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Which colony the session talks to, for colonies.<id>.ask. */
  colonyId?: string;
}

export function resolveAskSettings(i: ResolveInputs = {}): AskSettings {
  const env = i.env ?? process.env;
  const { global: g, project: p } = configLayers(env, i.cwd);
  const [global, project] = [g.config, p.config];
  const layers: [string, Ask | undefined][] = [
    ['built-in', undefined],
    [g.from, global.ai?.ask],
    [`colony ${i.colonyId ?? ''}`, i.colonyId ? (global.colonies?.[i.colonyId]?.ask ?? project.colonies?.[i.colonyId]?.ask) : undefined],
    [p.from, project.ai?.ask],
  ];
  const out: AskSettings = { model: null, fallbackModels: [], apiKeys: {}, ...BUILT_IN, mcpServers: { ...global.mcp_servers, ...project.mcp_servers }, origin: {} };
  const set = <K extends keyof AskSettings>(key: K, value: AskSettings[K] | undefined, from: string) => {
    if (value === undefined) return;
    out[key] = value;
    out.origin[key] = from;
  };
  for (const [from, ask] of layers) {
    if (!ask) continue;
    set('model', ask.default_model, from);
    set('fallbackModels', ask.fallback_models, from);
    if (ask.api_keys) set('apiKeys', { ...out.apiKeys, ...ask.api_keys }, from);
    set('maxToolRounds', ask.max_tool_rounds, from);
    set('maxTurns', ask.conversation?.max_turns, from);
    set('contextWindow', ask.conversation?.context_window, from);
    set('autoPrune', ask.conversation?.auto_prune, from);
  }
  if (env.CORAL_ASK_MODEL) {
    const m = modelName.safeParse(inferred(env.CORAL_ASK_MODEL, 'CORAL_ASK_MODEL'));
    if (!m.success) throw new CoralError(`CORAL_ASK_MODEL="${env.CORAL_ASK_MODEL}" is not a model name.`, m.error.issues[0].message);
    set('model', m.data, 'environment (CORAL_ASK_MODEL)');
  }
  if (env.CORAL_ASK_FALLBACK_MODELS) set('fallbackModels', env.CORAL_ASK_FALLBACK_MODELS.split(',').map((s) => s.trim()).filter(Boolean).map((n) => inferred(n, 'CORAL_ASK_FALLBACK_MODELS')), 'environment (CORAL_ASK_FALLBACK_MODELS)');
  if (i.flags?.model) {
    const m = modelName.safeParse(inferred(i.flags.model, '--model'));
    if (!m.success) throw new CoralError(`--model "${i.flags.model}" is not a model name.`, m.error.issues[0].message);
    set('model', m.data, 'flag (--model)');
  }
  return out;
}

/** A bare model name (gemini-1.5-pro) as provider:model, noting the provider chosen. */
function inferred(name: string, where: string): string {
  const m = inferModelName(name, where);
  if (m.note) recordNotes([m.note]);
  return m.model;
}

/** The Honeycomb settings, project over global; api_url and api_key as a pair from one file (paired-settings.ts). */
export function resolveHoneycombSettings(i: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {}): HoneycombSettings {
  const { global, project } = configLayers(i.env ?? process.env, i.cwd, i);
  return mergePaired([global.config.honeycomb, project.config.honeycomb]);
}

/** The default colony from config, project (when trusted) over global, url and token from the same file. */
export function resolveDefaultColony(i: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {}): (DefaultColonySettings & { layer: 'global' | 'project'; from: string }) | undefined {
  const { global, project } = configLayers(i.env ?? process.env, i.cwd, i);
  for (const [layer, l] of [['project', project], ['global', global]] as const) {
    if (l.config.colony?.url) return { ...l.config.colony, layer, from: l.from };
  }
  return undefined;
}

/**
 * The tools switched off (`tools.disabled`), the user's file and the project's together: either may
 * take a tool away. Read through configLayers like every setting; leaving a tool out runs nothing
 * and sends nothing, so an untrusted project's list applies too.
 */
export function resolveDisabledTools(i: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {}): ReadonlySet<string> {
  const { global, project } = configLayers(i.env ?? process.env, i.cwd, i);
  return new Set([...(global.config.tools?.disabled ?? []), ...(project.config.tools?.disabled ?? [])]);
}

/** Whether a tool may be listed and called (RFD 030's per-tool switch), against resolveDisabledTools' set (read once per session, not per tool). */
export function isToolEnabled(name: string, disabled: ReadonlySet<string>): boolean {
  return !disabled.has(name);
}

/**
 * The ClickHouse colony settings, from the user's own config only: a cloned project's file must not
 * be able to send the user's ClickHouse password to a server of its choosing.
 */
export function resolveClickHouseSettings(env: NodeJS.ProcessEnv = process.env): ClickHouseSettings {
  return readConfigFile(globalConfigPath(env), 'user').clickhouse ?? {};
}

/** Resolves a secret reference to its value, or says exactly what is missing. */
export function resolveSecret(ref: string, env: NodeJS.ProcessEnv = process.env): string {
  if (ref.startsWith('env://')) {
    const name = ref.slice('env://'.length);
    const value = env[name];
    if (!value) {
      // A key pasted after env:// must not be echoed back in the error.
      const shown = maskReference(ref);
      if (shown !== ref) throw new CoralError(`The key reference ${shown} is not a variable name (is it the key itself?).`, 'Write env://VARIABLE and export the key in that variable.');
      throw new CoralError(`The key reference ${ref} points to ${name}, which is not set.`, `export ${name}=... in the shell that runs coral.`);
    }
    return value;
  }
  if (ref.startsWith('keyring://')) return readKeyring(ref);
  throw new CoralError('API keys are references, not values.', 'Write env://VARIABLE (e.g. env://GEMINI_API_KEY) and export the key in that variable.');
}

/** One MCP server in words, every secret masked (args, env values, URL credentials, token). */
export function describeMcpServer(v: McpServerConfig): string {
  if ('command' in v) {
    const env = Object.keys(v.env ?? {}).map((name) => `${name}=${MASK}`);
    return `stdio: ${[...env, v.command, ...maskArgs(v.args ?? [])].join(' ')}`;
  }
  return `http: ${maskUrl(v.url)}${v.token ? ` (token ${maskReference(v.token)})` : ''}`;
}

/** A secret reference as `config show` prints it: masked, with whether it can be resolved; never the value. */
export function describeReference(ref: string, env: NodeJS.ProcessEnv = process.env): string {
  const state = ref.startsWith('keyring://') ? 'in the system keyring' : ref.startsWith('env://') && env[ref.slice(6)] ? 'set' : 'NOT SET';
  return `${maskReference(ref)} (${state})`;
}

/** The settings with secrets masked, for `coral config show`. */
export function describeSettings(s: AskSettings): Record<string, unknown> {
  return {
    model: s.model ?? '(none: recorded investigation on demos, else automatic triage)',
    fallback_models: s.fallbackModels,
    api_keys: Object.fromEntries(Object.entries(s.apiKeys).map(([k, v]) => [k, v ? describeReference(v) : v])),
    max_tool_rounds: s.maxToolRounds,
    conversation: { max_turns: s.maxTurns, context_window: s.contextWindow, auto_prune: s.autoPrune },
    mcp_servers: Object.fromEntries(Object.entries(s.mcpServers).map(([k, v]) => [k, describeMcpServer(v)])),
    origin: s.origin,
  };
}
