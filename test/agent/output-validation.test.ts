import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolHub } from '../../src/agent/toolhub.js';

/**
 * The hub does not check in-process servers' results against their output schemas itself: their
 * McpServer does it before sending, so a result that breaks its schema still never reaches the agent.
 */
describe('output schemas of an in-process server', () => {
  it('are enforced by the server: a result that breaks its schema comes back as a failed call', async () => {
    const server = new McpServer({ name: 'fake', version: '1' });
    const config = { inputSchema: { good: z.boolean() }, outputSchema: { n: z.number() } };
    server.registerTool('count', config, async ({ good }) => {
      const structured = good ? { n: 1 } : { n: 'one' };
      return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured as { n: number } };
    });
    const hub = await ToolHub.connect([{ name: 'fake', server }]);
    try {
      const ok = await hub.call('a', 'count', { good: true }, { timeoutMs: 5000 });
      expect(ok).toMatchObject({ ok: true, structured: { n: 1 } });
      const bad = await hub.call('b', 'count', { good: false }, { timeoutMs: 5000 });
      expect(bad.ok).toBe(false);
      expect(bad.text).toMatch(/output validation/i);
    } finally {
      await hub.close();
    }
  });
});
