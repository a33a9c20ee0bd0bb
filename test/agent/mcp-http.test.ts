import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { colonyMcpUrl, httpTransport } from '../../src/agent/mcp-http.js';
import { createMcpHttpHandler } from '../../src/colony/mcp-http.js';
import { startReceiver } from '../../src/colony/otlp/receiver.js';

describe('colonyMcpUrl', () => {
  it('adds /mcp to a base URL and keeps one that has it', () => {
    expect(colonyMcpUrl('http://127.0.0.1:4318').href).toBe('http://127.0.0.1:4318/mcp');
    expect(colonyMcpUrl('http://127.0.0.1:4318/').href).toBe('http://127.0.0.1:4318/mcp');
    expect(colonyMcpUrl('http://127.0.0.1:4318/mcp/').href).toBe('http://127.0.0.1:4318/mcp');
  });

  it('says what a colony URL looks like when given something else', () => {
    expect(() => colonyMcpUrl('127.0.0.1 port 4318')).toThrow(/Invalid --colony "127\.0\.0\.1 port 4318"/);
  });
});

describe('httpTransport', () => {
  it('ends its session on the server when closed, so it does not hold the colony\'s session quota', async () => {
    const handler = createMcpHttpHandler(() => new McpServer({ name: 't', version: '1' }), { allowedHosts: [] });
    const receiver = await startReceiver({ sink: { write: () => Promise.resolve() }, port: 0, decodeWorkers: 0, routes: { '/mcp': (req, res) => handler.handle(req, res) } });
    try {
      const client = new Client({ name: 'coral-test', version: '1' });
      await client.connect(httpTransport(new URL(`${receiver.url}/mcp`), undefined));
      expect(handler.sessionCount).toBe(1);
      await client.close();
      expect(handler.sessionCount).toBe(0);
    } finally {
      await handler.close();
      await receiver.close();
    }
  });
});
