import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpClientConfig } from '../../src/commands/mcp.js';

/** The documented shapes: Claude Desktop and Cursor read `mcpServers`; VS Code reads `servers` with a type. */
const stdioServer = z.object({ command: z.string(), args: z.array(z.string()), env: z.record(z.string(), z.string()).optional() }).strict();
const SHAPES = {
  claude: z.object({ mcpServers: z.record(z.string(), stdioServer) }).strict(),
  cursor: z.object({ mcpServers: z.record(z.string(), stdioServer) }).strict(),
  vscode: z.object({ servers: z.record(z.string(), stdioServer.extend({ type: z.literal('stdio') }).strict()) }).strict(),
};

describe('coral mcp config --client', () => {
  it.each(['claude', 'cursor', 'vscode'] as const)('%s: the documented shape, starting this node and bundle', (client) => {
    const cfg = mcpClientConfig(client, {}, {});
    expect(SHAPES[client].safeParse(cfg).success).toBe(true);
    const server = Object.values((cfg as { mcpServers?: object; servers?: object }).mcpServers ?? (cfg as { servers: object }).servers)[0] as { command: string; args: string[]; env?: object };
    expect(server.command).toBe(process.execPath);
    expect(server.args[0]).toMatch(/dist\/coral\.js$/);
    expect(server.args.slice(1)).toEqual(['mcp']);
    expect(server.env).toBeUndefined();
  });

  it('bridges to a running colony with --colony, and carries CORAL_HOME (absolute) when set', () => {
    const cfg = mcpClientConfig('vscode', { colony: 'http://127.0.0.1:4318' }, { CORAL_HOME: 'rel/home' }) as { servers: { coral: { type: string; args: string[]; env: Record<string, string> } } };
    expect(cfg.servers.coral.type).toBe('stdio');
    expect(cfg.servers.coral.args.slice(1)).toEqual(['mcp', '--colony', 'http://127.0.0.1:4318']);
    expect(cfg.servers.coral.env.CORAL_HOME).toBe(`${process.cwd()}/rel/home`);
    const demo = mcpClientConfig('claude', { demo: 'payment-failure' }, {}) as { mcpServers: { coral: { args: string[] } } };
    expect(demo.mcpServers.coral.args.slice(1)).toEqual(['mcp', '--demo', 'payment-failure']);
  });
});
