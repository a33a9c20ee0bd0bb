/** A minimal third-party MCP server over stdio, for the configured-servers test. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1' });
server.registerTool('echo_deploys', { description: 'Lists deploys from the CD system', inputSchema: { service: z.string() } }, async ({ service }) => ({
  content: [{ type: 'text', text: `deploys of ${service}: v2.1.0 at 10:34` }],
}));
await server.connect(new StdioServerTransport());
