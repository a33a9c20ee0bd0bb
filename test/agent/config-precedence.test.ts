import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDirs } from '../support/config-dirs.js';
import { recordTrust } from '../../src/agent/trust.js';
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
    recordTrust(join(dirs.project, '.coral', 'config.yaml'), { CORAL_HOME: dirs.home });
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
    recordTrust(join(dirs.project, '.coral', 'config.yaml'), { CORAL_HOME: dirs.home });
    expect(resolveHoneycombSettings(inputs())).toEqual({ region: 'eu', cache_ttl_seconds: 5, api_url: 'https://honeycomb.example.com' });
    // With its own key the project's pair is used whole.
    projectFile('honeycomb:\n  api_url: "https://honeycomb.example.com"\n  api_key: env://PROJECT_KEY\n');
    recordTrust(join(dirs.project, '.coral', 'config.yaml'), { CORAL_HOME: dirs.home });
    expect(resolveHoneycombSettings(inputs())).toEqual({ region: 'eu', api_url: 'https://honeycomb.example.com', api_key: 'env://PROJECT_KEY' });
  });

  it('merges plain keys key by key and takes the gated ones from the highest file that sets any', () => {
    const layers: { from: string; section: HoneycombSettings }[] = [
      { from: 'global', section: { api_key: 'env://G', region: 'eu' } },
      { from: 'project', section: { api_url: 'https://p', cache_ttl_seconds: 1 } },
    ];
    expect(mergePaired(layers)).toEqual({ value: { region: 'eu', cache_ttl_seconds: 1, api_url: 'https://p' }, pairedFrom: 'project' });
    expect(mergePaired([layers[0], { from: 'project', section: { region: 'us' } }])).toEqual({ value: { region: 'us', api_key: 'env://G' }, pairedFrom: 'global' });
  });
});
