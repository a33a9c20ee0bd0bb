import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs, trustProjectFile } from '../support/config-dirs.js';
import { type HoneycombSettings, resolveAskSettings, resolveHoneycombSettings } from '../../src/agent/config.js';
import { mergePaired } from '../../src/agent/paired-settings.js';

const { dirs, globalFile, projectFile } = configDirs();
const inputs = () => ({ env: { CORAL_HOME: dirs.home }, cwd: dirs.project });

describe('mcp_servers from the global and project files', () => {
  it('merges both, the project winning a name both define (once the project is trusted)', () => {
    globalFile([
      'mcp_servers:',
      '  deploys: { command: global-deploys, args: [--all] }',
      '  tickets: { url: "http://127.0.0.1:9001/mcp" }',
    ].join('\n'));
    projectFile([
      'mcp_servers:',
      '  deploys: { url: "http://127.0.0.1:9002/mcp", token: env://DEPLOYS_TOKEN }',
      '  flags: { command: project-flags }',
    ].join('\n'));
    // Untrusted, the project's servers are inert (they could run anything).
    expect(resolveAskSettings(inputs()).mcpServers).toEqual({ deploys: { command: 'global-deploys', args: ['--all'] }, tickets: { url: 'http://127.0.0.1:9001/mcp' } });
    trustProjectFile(join(dirs.project, '.coral', 'config.yaml'), { CORAL_HOME: dirs.home });
    expect(resolveAskSettings(inputs()).mcpServers).toEqual({
      deploys: { url: 'http://127.0.0.1:9002/mcp', token: 'env://DEPLOYS_TOKEN' },
      tickets: { url: 'http://127.0.0.1:9001/mcp' },
      flags: { command: 'project-flags' },
    });
  });

  it('keeps the global servers when the project file defines none', () => {
    globalFile('mcp_servers:\n  deploys: { command: global-deploys }\n');
    projectFile('ai:\n  ask:\n    max_tool_rounds: 2\n');
    expect(resolveAskSettings(inputs()).mcpServers).toEqual({ deploys: { command: 'global-deploys' } });
  });
});

describe('honeycomb settings from the global and project files', () => {
  it('takes each key from the project when it sets it, else from the global file', () => {
    globalFile('honeycomb:\n  region: eu\n  cache_ttl_seconds: 60\n');
    projectFile('honeycomb:\n  region: us\n');
    expect(resolveHoneycombSettings(inputs())).toEqual({ region: 'us', cache_ttl_seconds: 60 });
  });
});

describe('an endpoint and its secret come from one file', () => {
  it('a trusted project\'s honeycomb.api_url does not receive the key from the user\'s own file', () => {
    globalFile('honeycomb:\n  api_key: env://HONEYCOMB_KEY\n  region: eu\n');
    projectFile('honeycomb:\n  api_url: "https://honeycomb.example.com"\n  cache_ttl_seconds: 5\n');
    trustProjectFile(join(dirs.project, '.coral', 'config.yaml'), { CORAL_HOME: dirs.home });
    expect(resolveHoneycombSettings(inputs())).toEqual({ region: 'eu', cache_ttl_seconds: 5, api_url: 'https://honeycomb.example.com' });
    // With its own key the project's pair is used whole.
    projectFile('honeycomb:\n  api_url: "https://honeycomb.example.com"\n  api_key: env://PROJECT_KEY\n');
    trustProjectFile(join(dirs.project, '.coral', 'config.yaml'), { CORAL_HOME: dirs.home });
    expect(resolveHoneycombSettings(inputs())).toEqual({ region: 'eu', api_url: 'https://honeycomb.example.com', api_key: 'env://PROJECT_KEY' });
  });

  it('merges plain keys key by key and takes the gated ones from the highest file that sets any', () => {
    const global: HoneycombSettings = { api_key: 'env://G', region: 'eu' };
    expect(mergePaired<HoneycombSettings>([global, { api_url: 'https://p', cache_ttl_seconds: 1 }])).toEqual({ region: 'eu', cache_ttl_seconds: 1, api_url: 'https://p' });
    expect(mergePaired<HoneycombSettings>([global, { region: 'us' }, undefined])).toEqual({ region: 'us', api_key: 'env://G' });
  });
});

describe('HONEYCOMB_API_KEY and a project\'s api_url', () => {
  it('the user\'s key from the environment never goes to an api_url a (trusted) project names', async () => {
    const { honeycombOptions, honeycombSettingsInEffect } = await import('../../src/agent/honeycomb-options.js');
    const env = { CORAL_HOME: dirs.home, HONEYCOMB_API_KEY: 'user-key', PROJECT_KEY: 'p' };
    projectFile('honeycomb:\n  api_url: "https://honeycomb.example.com"\n');
    trustProjectFile(join(dirs.project, '.coral', 'config.yaml'), env);
    const warnings: string[] = [];
    expect(honeycombOptions({}, env, { cwd: dirs.project, warn: (l) => warnings.push(l) }).apiUrl).toBeUndefined();
    expect(warnings).toEqual(['coral: honeycomb.api_url from the project file is not sent HONEYCOMB_API_KEY; set honeycomb.api_key there (env://VAR) to use it']);
    // config show reads the same answer: the URL is named as left out, not as in effect.
    expect(honeycombSettingsInEffect(env, dirs.project)).toEqual({ dropped: 'https://honeycomb.example.com' });
    // The user's own file may point its own key anywhere; the project with its own key, too.
    globalFile('honeycomb:\n  api_url: "https://user.example.com"\n');
    projectFile('');
    expect(honeycombOptions({}, env, { cwd: dirs.project }).apiUrl).toBe('https://user.example.com');
    projectFile('honeycomb:\n  api_url: "https://honeycomb.example.com"\n  api_key: env://PROJECT_KEY\n');
    trustProjectFile(join(dirs.project, '.coral', 'config.yaml'), env);
    expect(honeycombOptions({}, env, { cwd: dirs.project })).toMatchObject({ apiUrl: 'https://honeycomb.example.com', apiKey: 'p' });
  });
});
