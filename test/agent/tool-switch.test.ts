import { afterEach, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../src/colony/store/store.js';
import { createColonyServer } from '../../src/colony/server.js';
import { ToolHub } from '../../src/agent/toolhub.js';
import { isToolEnabled, resolveDisabledTools } from '../../src/agent/config.js';
import { HoneycombClient } from '../../src/honeycomb/api.js';
import { createHoneycombServer } from '../../src/honeycomb/tools.js';
import { configDirs } from '../support/config-dirs.js';
import { inMemoryClient } from '../support/mcp.js';
import { MIN, T0 } from '../support/otlp-json.js';

const { dirs, globalFile, projectFile } = configDirs();
const disabled = () => resolveDisabledTools({ env: { CORAL_HOME: dirs.home }, cwd: dirs.project, quiet: true });

let store: ColonyStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('tools.disabled: the per-tool switch', () => {
  it('is read from the user\'s file and the project\'s (untrusted too: leaving a tool out runs nothing)', () => {
    expect(isToolEnabled('coral_query_traces', disabled())).toBe(true);
    globalFile('tools:\n  disabled: [coral_query_traces]\n');
    projectFile('tools:\n  disabled: [honeycomb_search_columns]\n');
    const off = disabled();
    expect([...off].sort()).toEqual(['coral_query_traces', 'honeycomb_search_columns']);
    expect(isToolEnabled('coral_query_traces', off)).toBe(false);
    expect(isToolEnabled('honeycomb_search_columns', off)).toBe(false);
    expect(isToolEnabled('coral_query_summary', off)).toBe(true);
  });

  it('coral config show lists the tools switched off', async () => {
    globalFile('tools:\n  disabled: [coral_query_traces]\n');
    const { configSections } = await import('../../src/commands/config.js');
    expect(configSections({ CORAL_HOME: dirs.home })).toMatchObject({ tools: { disabled: ['coral_query_traces'] } });
  });

  it('refuses a list that is not a list of names', () => {
    globalFile('tools:\n  disabled: coral_query_traces\n');
    expect(() => disabled()).toThrow(/tools\.disabled/);
  });

  it('takes a tool out of the colony MCP server: not listed, not callable', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const mcp = await inMemoryClient(store, () => T0 + 10n * MIN, { disabledTools: new Set(['coral_query_traces']) });
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('coral_query_summary');
    expect(names).not.toContain('coral_query_traces');
    const r = await mcp.call('coral_query_traces', {});
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/coral_query_traces/);
    await mcp.close();
  });

  it('takes a tool out of the Honeycomb server and out of the list the model sees, whatever server offers it', async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const client = new HoneycombClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
    const off = new Set(['coral_query_breakdown', 'honeycomb_get_environment_summary']);
    // The colony server is built without the switch, as a user's own MCP server would be: the hub still leaves it out.
    const hub = await ToolHub.connect([
      { name: 'colony', server: createColonyServer({ store, now: () => T0, maxResponseChars: 16_000 }) },
      { name: 'honeycomb', server: createHoneycombServer(client, { disabledTools: off }) },
    ], { isEnabled: (t) => isToolEnabled(t, off) });
    const names = hub.tools().map((t) => t.name);
    expect(names).toContain('coral_query_summary');
    expect(names).toContain('honeycomb_search_columns');
    expect(names).not.toContain('coral_query_breakdown');
    expect(names).not.toContain('honeycomb_get_environment_summary');
    const r = await hub.call('1', 'coral_query_breakdown', {}, { timeoutMs: 5_000 });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/No tool named coral_query_breakdown/);
    await hub.close();
    // The Honeycomb server itself (coral honeycomb mcp) lists it no more.
    const served = await ToolHub.connect([{ name: 'honeycomb', server: createHoneycombServer(client, { disabledTools: off }) }]);
    expect(served.tools().map((t) => t.name)).toEqual(['honeycomb_search_columns']);
    await served.close();
  });
});
