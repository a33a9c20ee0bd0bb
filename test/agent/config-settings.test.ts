import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs, errorOf, trustProjectFile } from '../support/config-dirs.js';
import { takeConfigNotes } from '../../src/agent/config-compat.js';
import {
  BUILT_IN, describeMcpServer, describeReference, describeSettings, globalConfigPath, projectConfigPath, readConfigFile,
  resolveAskSettings, resolveClickHouseSettings, resolveDefaultColony, resolveSecret,
} from '../../src/agent/config.js';

const { dirs, globalFile, projectFile } = configDirs();
const env = () => ({ CORAL_HOME: dirs.home });
const resolve = (extra: Parameters<typeof resolveAskSettings>[0] = {}) => resolveAskSettings({ env: env(), cwd: dirs.project, ...extra });
const trustProject = () => trustProjectFile(join(dirs.project, '.coral', 'config.yaml'), env());

describe('where the settings come from', () => {
  it('starts from the built-in values with no file', () => {
    expect(resolve()).toEqual({ model: null, fallbackModels: [], apiKeys: {}, ...BUILT_IN, mcpServers: {}, origin: {} });
    expect(BUILT_IN).toEqual({ maxToolRounds: 8, maxTurns: 20, contextWindow: 128_000, autoPrune: true });
  });

  it('names each layer a setting came from', () => {
    globalFile('ai:\n  ask:\n    max_tool_rounds: 3\n    default_model: google:g\ncolonies:\n  prod:\n    ask:\n      conversation: { max_turns: 7 }\n');
    projectFile('ai:\n  ask:\n    conversation: { context_window: 4000 }\n');
    const s = resolve({ colonyId: 'prod', env: { ...env(), CORAL_ASK_FALLBACK_MODELS: 'openai:a' } });
    expect(s.origin).toEqual({
      model: `global (${globalConfigPath(env())})`,
      maxToolRounds: `global (${globalConfigPath(env())})`,
      maxTurns: 'colony prod',
      contextWindow: `project (${projectConfigPath(dirs.project)})`,
      fallbackModels: 'environment (CORAL_ASK_FALLBACK_MODELS)',
    });
    expect(s).toMatchObject({ maxToolRounds: 3, maxTurns: 7, contextWindow: 4000, autoPrune: true });
    expect(resolve({ env: { ...env(), CORAL_ASK_MODEL: 'openai:e' } }).origin.model).toBe('environment (CORAL_ASK_MODEL)');
  });

  it('reads a colony\'s settings from the project file when the global one has none for it', () => {
    globalFile('colonies:\n  other:\n    ask:\n      max_tool_rounds: 2\n');
    projectFile('colonies:\n  prod:\n    ask:\n      max_tool_rounds: 5\n');
    expect(resolve({ colonyId: 'prod' }).maxToolRounds).toBe(5);
    expect(resolve({ colonyId: 'other' }).maxToolRounds).toBe(2);
    expect(resolve().maxToolRounds).toBe(8);
  });

  it('merges api_keys across layers, a later layer winning a provider', () => {
    globalFile('ai:\n  ask:\n    api_keys: { google: env://G_GLOBAL, openai: env://O_GLOBAL }\n');
    projectFile('ai:\n  ask:\n    api_keys: { openai: env://O_PROJECT, anthropic: env://A_PROJECT }\n');
    trustProject();
    expect(resolve().apiKeys).toEqual({ google: 'env://G_GLOBAL', openai: 'env://O_PROJECT', anthropic: 'env://A_PROJECT' });
  });

  it('reads fallback models from the environment as a trimmed list without empty entries, taking bare names', () => {
    takeConfigNotes();
    const s = resolve({ env: { ...env(), CORAL_ASK_FALLBACK_MODELS: ' openai:a , ,gpt-4o-mini,' } });
    expect(s.fallbackModels).toEqual(['openai:a', 'openai:gpt-4o-mini']);
    expect(takeConfigNotes()).toEqual(['CORAL_ASK_FALLBACK_MODELS "gpt-4o-mini" is taken as openai:gpt-4o-mini (write provider:model to choose another provider).']);
  });

  it('takes a bare model name in CORAL_ASK_MODEL and --model, and refuses an unknown one with the accepted forms', () => {
    expect(resolve({ env: { ...env(), CORAL_ASK_MODEL: 'claude-sonnet-4' } }).model).toBe('anthropic:claude-sonnet-4');
    expect(resolve({ flags: { model: 'llama3.2' } }).model).toBe('ollama:llama3.2');
    const e = errorOf(() => resolve({ env: { ...env(), CORAL_ASK_MODEL: 'mystery' } }));
    expect(e.message).toBe('CORAL_ASK_MODEL="mystery" is not a model name.');
    expect(e.hint).toMatch(/^a model is provider:model, e\.g\. google:gemini-2\.5-flash/);
    expect(errorOf(() => resolve({ flags: { model: 'mystery' } })).hint).toMatch(/^a model is provider:model/);
  });
});

describe('config files that cannot be used', () => {
  it('names the file and each bad key with what is accepted', () => {
    globalFile([
      'ai:',
      '  ask:',
      '    max_tool_rounds: 51',
      '    conversation: { max_turns: 0, context_window: 999 }',
      'honeycomb: { region: mars, api_url: "not a url", cache_ttl_seconds: 86401 }',
      'colony: { url: "nope" }',
      'clickhouse: { url: "ftp://x", database: "a b", tables: { traces: "t;drop" } }',
      'mcp_servers:',
      '  bad: { command: x, url: "http://h/" }',
    ].join('\n'));
    const e = errorOf(() => resolve());
    const path = globalConfigPath(env());
    expect(e.message.split('\n')).toEqual([
      `${path} has invalid settings:`,
      '  ai.ask.max_tool_rounds: Too big: expected number to be <=50',
      '  ai.ask.conversation.max_turns: Too small: expected number to be >=1',
      '  ai.ask.conversation.context_window: Too small: expected number to be >=1000',
      '  colony.url: colony.url must be an http(s) URL, e.g. http://127.0.0.1:4318',
      '  clickhouse.url: clickhouse.url is http(s)://[user@]host:8123[/database] or chdb:DIR',
      '  clickhouse.database: table names are letters, digits, _, . and -',
      '  clickhouse.tables.traces: table names are letters, digits, _, . and -',
      '  honeycomb.region: region must be us or eu',
      '  honeycomb.api_url: api_url must be an http(s) URL',
      '  honeycomb.cache_ttl_seconds: Too big: expected number to be <=86400',
      '  mcp_servers.bad: an MCP server is {command, args?, env?} (stdio) or {url, token?} (Streamable HTTP)',
    ]);
    expect(e.hint).toMatch(/^Known keys: ai\.ask\.\{default_model, fallback_models/);
  });

  it('says "(top level)" when the file is not a mapping, and quotes the first line of a YAML error', () => {
    globalFile('- a\n- b\n');
    expect(errorOf(() => resolve()).message).toMatch(/has invalid settings:\n {2}\(top level\): /);
    globalFile('ai: [unclosed\nmore: x\n');
    expect(errorOf(() => resolve()).message).toMatch(new RegExp(`^${globalConfigPath(env()).replace(/[.\\/]/g, '\\$&')} is not valid YAML: [^\\n]+$`));
  });

  it('refuses settings from RFD 030 that have no replacement, listing each', () => {
    globalFile('ai:\n  ask:\n    agent: { mode: daemon }\n');
    expect(errorOf(() => resolve()).message).toBe(`${globalConfigPath(env())} has settings from Coral's RFD 030 that cannot be used here:\n  ai.ask.agent.mode: "daemon" is not available: coral runs the agent in its own process (embedded). Remove the key.`);
  });

  it('reads an absent or empty file as no settings', () => {
    expect(readConfigFile(join(dirs.home, 'none.yaml'), 'user')).toEqual({});
    globalFile('');
    expect(readConfigFile(globalConfigPath(env()), 'user')).toEqual({});
  });
});

describe('the default colony and the ClickHouse settings', () => {
  it('takes the default colony whole from the trusted project when it names one, else from the global file', () => {
    expect(resolveDefaultColony({ env: env(), cwd: dirs.project })).toBeUndefined();
    globalFile('colony: { url: "http://127.0.0.1:4318", token: env://G_TOKEN }\n');
    const global = { url: 'http://127.0.0.1:4318', token: 'env://G_TOKEN', layer: 'global', from: `global (${globalConfigPath(env())})` };
    expect(resolveDefaultColony({ env: env(), cwd: dirs.project })).toEqual(global);
    // Untrusted, the project's colony is ignored: it would choose where the user's reads (and token) go.
    projectFile('colony: { url: "http://10.0.0.1:4318" }\n');
    expect(resolveDefaultColony({ env: env(), cwd: dirs.project, quiet: true })).toEqual(global);
    trustProject();
    // Trusted, it is taken whole: the global token does not come along to the project's URL.
    expect(resolveDefaultColony({ env: env(), cwd: dirs.project })).toEqual({ url: 'http://10.0.0.1:4318', layer: 'project', from: `project (${projectConfigPath(dirs.project)})` });
  });

  it('reads ClickHouse only from the user\'s own file, never the project\'s', () => {
    expect(resolveClickHouseSettings(env())).toEqual({});
    projectFile('clickhouse: { url: "http://evil:8123", password: env://CH_PASSWORD }\n');
    expect(resolveClickHouseSettings(env())).toEqual({});
    globalFile('clickhouse: { url: "chdb:/data", tables: { traces: otel_traces } }\n');
    expect(resolveClickHouseSettings(env())).toEqual({ url: 'chdb:/data', tables: { traces: 'otel_traces' } });
  });
});

describe('secret references', () => {
  it('resolves env:// from the environment and says what to export when it is unset', () => {
    expect(resolveSecret('env://MY_KEY', { MY_KEY: 'v' })).toBe('v');
    const e = errorOf(() => resolveSecret('env://MY_KEY', {}));
    expect([e.message, e.hint]).toEqual(['The key reference env://MY_KEY points to MY_KEY, which is not set.', 'export MY_KEY=... in the shell that runs coral.']);
    expect(errorOf(() => resolveSecret('env://MY_KEY', { MY_KEY: '' })).message).toMatch(/which is not set/);
  });

  it('never echoes a key pasted after env://, and refuses a bare value', () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    const e = errorOf(() => resolveSecret(`env://${key}`, {}));
    expect(e.message).toBe('The key reference env://**** is not a variable name (is it the key itself?).');
    expect(e.hint).toBe('Write env://VARIABLE and export the key in that variable.');
    const bare = errorOf(() => resolveSecret(key, { [key]: 'x' }));
    expect([bare.message, bare.hint]).toEqual(['API keys are references, not values.', 'Write env://VARIABLE (e.g. env://GEMINI_API_KEY) and export the key in that variable.']);
  });

  it('describes a reference by whether it can be resolved, never by its value', () => {
    expect(describeReference('env://MY_KEY', { MY_KEY: 'secret-value' })).toBe('env://MY_KEY (set)');
    expect(describeReference('env://MY_KEY', {})).toBe('env://MY_KEY (NOT SET)');
    expect(describeReference('keyring://coral/google', {})).toBe('keyring://**** (in the system keyring)');
    expect(describeReference('keyring://MY_KEY', { MY_KEY: 'x' })).toMatch(/\(in the system keyring\)$/);
  });
});

describe('config show', () => {
  it('describes MCP servers with every secret masked', () => {
    expect(describeMcpServer({ command: 'deploys', args: ['--token', 'abc', '--all'], env: { DEPLOY_TOKEN: 'x', REGION: 'eu' } })).toBe('stdio: DEPLOY_TOKEN=**** REGION=**** deploys --token **** --all');
    expect(describeMcpServer({ command: 'flags' })).toBe('stdio: flags');
    expect(describeMcpServer({ url: 'http://user:pw@127.0.0.1:9000/mcp', token: 'env://DEPLOYS_TOKEN' })).toBe('http: http://****:****@127.0.0.1:9000/mcp (token env://DEPLOYS_TOKEN)');
    expect(describeMcpServer({ url: 'http://127.0.0.1:9000/mcp' })).toBe('http: http://127.0.0.1:9000/mcp');
  });

  it('describes the settings for people, with keys and servers masked', () => {
    globalFile('ai:\n  ask:\n    api_keys: { google: env://G }\nmcp_servers:\n  flags: { command: flags }\n');
    const s = resolve();
    expect(describeSettings({ ...s, apiKeys: { ...s.apiKeys, openai: undefined } })).toEqual({
      model: '(none: recorded investigation on demos, else automatic triage)',
      fallback_models: [],
      api_keys: { google: 'env://G (NOT SET)', openai: undefined },
      max_tool_rounds: 8,
      conversation: { max_turns: 20, context_window: 128_000, auto_prune: true },
      mcp_servers: { flags: 'stdio: flags' },
      origin: { apiKeys: `global (${globalConfigPath(env())})` },
    });
    expect(describeSettings({ ...s, model: 'google:g' }).model).toBe('google:g');
  });
});
