import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { startReceiver, type RunningReceiver } from '../../src/colony/otlp/receiver.js';
import { createColonyServer } from '../../src/colony/server.js';
import { createMcpHttpHandler, loopbackHosts } from '../../src/colony/mcp-http.js';
import { loadScenario } from '../../src/demo/load.js';
import { readMeta } from '../../src/demo/files.js';
import { nowNs } from '../../src/core/time.js';

type Text = { content: { text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
const text = (r: unknown) => (r as Text).content.map((c) => c.text).join('\n');

/** What a good first pass over a scenario must surface, whatever the transport. */
async function investigate(client: Client, scenario: string): Promise<void> {
  const truth = readMeta(scenario).truth;
  const summary = (await client.callTool({ name: 'coral_query_summary', arguments: {} })) as Text;
  const standOut = summary.structuredContent?.standOut as { service: string }[];
  expect(truth.culprits).toContain(standOut[0].service);
  const culprit = standOut[0].service;
  const metrics = text(await client.callTool({ name: 'coral_query_metrics', arguments: { service: culprit, time_range: '30m' } }));
  expect(metrics).toMatch(/Metrics \[(eBPF|OTLP)\]/);
  const traces = text(await client.callTool({ name: 'coral_query_traces', arguments: { service: culprit, time_range: '30m', max_traces: 5 } }));
  expect(traces).toMatch(/Trace: [0-9a-f]{32}/);
}

describe('stdio: coral mcp --demo (the built binary)', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'coral-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/coral.js', 'mcp', '--demo', 'payment-failure'], stderr: 'pipe' }));
  }, 60_000);
  afterAll(async () => client.close());

  it('serves the tools, and the porcelain tools surface the ground truth', async () => {
    expect((await client.listTools()).tools.length).toBe(16);
    await investigate(client, 'payment-failure');
    // payment is instrumented both ways: both sources answer.
    expect(text(await client.callTool({ name: 'coral_query_metrics', arguments: { service: 'payment' } }))).toMatch(/\[eBPF\][\s\S]*\[OTLP\]/);
    const metrics = (await client.callTool({ name: 'coral_query_metrics', arguments: { service: 'payment', time_range: '20m' } })) as Text;
    expect(text(metrics)).toMatch(/Charge, Requests: \d+, .*Errors: [2-6]\d\.\d%/);
  });
});

describe('Streamable HTTP /mcp with Host checks and a bearer token', () => {
  let store: ColonyStore;
  let receiver: RunningReceiver;
  const token = 's3cret-token';
  const hosts: string[] = [];

  beforeAll(async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
    await loadScenario(store, 'recommendation-cache-failure');
    const ctx = { store, now: nowNs, maxResponseChars: 16_000 };
    const handler = createMcpHttpHandler(() => createColonyServer(ctx), { allowedHosts: hosts, token });
    receiver = await startReceiver({ sink: store, port: 0, routes: { '/mcp': (req, res) => handler.handle(req, res) } });
    hosts.push(...loopbackHosts(receiver.port));
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await store.close();
  });

  it('answers MCP clients that carry the token, and surfaces the ground truth', async () => {
    const client = new Client({ name: 'coral-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${receiver.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    await investigate(client, 'recommendation-cache-failure');
    await client.close();
  });

  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const post = (headers: Record<string, string>) =>
    fetch(`${receiver.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init) });

  it('refuses requests without the token', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/bearer token/);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${receiver.url}/mcp`, { method: 'POST', headers: { host: 'evil.example:80', 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    expect(status).toBe(403);
  });

  it('keeps serving OTLP on the same port', async () => {
    const res = await fetch(`${receiver.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
  });
});
