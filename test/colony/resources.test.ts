/**
 * MCP citizenship: the colony's resources (services, status, each scenario's story) and the
 * investigate prompt, listed and read with the official SDK client over stdio (the built
 * `coral mcp`) and over Streamable HTTP (the colony's /mcp), as the MCP Inspector does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { type RunningReceiver, startReceiver } from '../../src/colony/otlp/receiver.js';
import { createColonyServer } from '../../src/colony/server.js';
import { createMcpHttpHandler, loopbackHosts } from '../../src/colony/mcp-http.js';
import { createToolContext } from '../../src/colony/tools/types.js';
import { investigateText } from '../../src/colony/resources.js';
import { listScenarios } from '../../src/demo/files.js';
import { loadScenario } from '../../src/demo/load.js';

const scenarios = listScenarios();
const textOf = (c: object) => ('text' in c ? String(c.text) : '');

async function checkCitizenship(client: Client, expectServices: boolean): Promise<void> {
  const tools = await client.listTools();
  expect(tools.tools.map((t) => t.name)).toContain('coral_query_summary');

  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  expect(uris).toEqual(expect.arrayContaining(['coral://colony/services', 'coral://colony/status', ...scenarios.map((s) => `coral://demo/scenarios/${s.name}`)]));
  expect(resources.find((r) => r.uri === 'coral://colony/status')).toMatchObject({ mimeType: 'application/json', title: 'Colony status' });

  const status = JSON.parse(textOf((await client.readResource({ uri: 'coral://colony/status' })).contents[0])) as { counts: { spans: number }; services: unknown[] };
  const services = JSON.parse(textOf((await client.readResource({ uri: 'coral://colony/services' })).contents[0])) as { serviceName: string; sources: string[] }[];
  if (expectServices) {
    expect(status.counts.spans).toBeGreaterThan(50_000);
    expect(services.find((s) => s.serviceName === 'payment')?.sources).toEqual(['ebpf', 'otlp']);
  }
  expect(status.services).toHaveLength(services.length);

  const story = (await client.readResource({ uri: 'coral://demo/scenarios/payment-failure' })).contents[0];
  expect(story.mimeType).toBe('text/markdown');
  expect(textOf(story)).toContain(scenarios.find((s) => s.name === 'payment-failure')?.story);
  expect(textOf(story)).toMatch(/coral demo load payment-failure/);

  const { prompts } = await client.listPrompts();
  expect(prompts).toHaveLength(1);
  expect(prompts[0]).toMatchObject({ name: 'investigate' });
  expect(prompts[0].arguments?.map((a) => a.name).sort()).toEqual(['end', 'service', 'start', 'symptom', 'time_range']);
  const prompt = await client.getPrompt({ name: 'investigate', arguments: { symptom: 'checkout returns 500', service: 'checkout' } });
  const text = (prompt.messages[0].content as { text: string }).text;
  expect(text).toMatch(/^Investigate this problem: checkout returns 500\. The user suspects the service "checkout"\.\n1\. Start with coral_query_summary/);
}

describe('investigate prompt text', () => {
  it('starts with the summary over the asked window, and works without arguments', () => {
    expect(investigateText({ time_range: '2h' })).toMatch(/^Investigate what is going wrong right now\.\n1\. Start with coral_query_summary \(time_range "2h"\)/);
    expect(investigateText({ start: '2025-12-02T13:05:00Z', end: '2025-12-02T13:35:00Z' })).toMatch(/^Investigate .*\n1\. Start with coral_query_summary \(start "2025-12-02T13:05:00Z", end "2025-12-02T13:35:00Z"\): .* Give every later call the same window\./);
  });
});

describe('over stdio: coral mcp --demo (the built binary)', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'inspector-like', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/coral.js', 'mcp', '--demo', 'payment-failure'], stderr: 'pipe' }));
  }, 90_000);
  afterAll(async () => client.close());

  it('lists and reads tools, resources and prompts', async () => checkCitizenship(client, true), 60_000);
});

describe('over Streamable HTTP: the colony\'s /mcp', () => {
  let store: ColonyStore;
  let receiver: RunningReceiver;
  let client: Client;
  beforeAll(async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
    await loadScenario(store, 'payment-failure');
    const allowedHosts: string[] = [];
    const ctx = createToolContext(store);
    const handler = createMcpHttpHandler(() => createColonyServer(ctx, { scenarios }), { allowedHosts });
    receiver = await startReceiver({ sink: store, port: 0, routes: { '/mcp': (req, res) => handler.handle(req, res) } });
    allowedHosts.push(...loopbackHosts(receiver.port));
    client = new Client({ name: 'inspector-like', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${receiver.url}/mcp`)));
  }, 90_000);
  afterAll(async () => {
    await client.close();
    await receiver.close();
    await store.close();
  });

  it('lists and reads tools, resources and prompts', async () => checkCitizenship(client, true), 60_000);
});
