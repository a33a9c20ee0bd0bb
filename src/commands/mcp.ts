import { join, resolve } from 'node:path';
import { packageRoot } from '../core/package-root.js';
import { coralHome } from '../core/paths.js';
import { createColonyServer } from '../colony/server.js';
import { createToolContext } from '../colony/tools/types.js';
import { listScenarios } from '../demo/files.js';
import { resolveColonyChoice } from '../agent/colony-choice.js';
import { resolveDisabledTools } from '../agent/config.js';
import { type AccessOptions, openLocalStore } from './colony-access.js';

/**
 * `coral mcp`: the colony's tools, resources and prompts over stdio, for Claude Desktop, IDEs and
 * other MCP clients. When a running colony holds the file (or --colony names one), stdio is bridged
 * to it instead.
 */
export async function mcpServe(asked: AccessOptions & { listDeprecatedTools?: boolean }): Promise<void> {
  const opts = await resolveColonyChoice(asked);
  if (opts.colony) {
    const { bridgeStdioToColony } = await import('./mcp-bridge.js');
    await bridgeStdioToColony(opts.colony, opts.token);
    return;
  }
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  // stdout is the protocol channel: everything human goes to stderr.
  const store = await openLocalStore(opts);
  const server = createColonyServer(createToolContext(store), { listDeprecatedTools: opts.listDeprecatedTools, scenarios: listScenarios(), disabledTools: resolveDisabledTools({ quiet: true }) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  process.stderr.write(`coral mcp: serving ${store.path} over stdio\n`);
  await closed;
  await server.close();
  await store.close();
}

export type McpClientKind = 'claude' | 'cursor' | 'vscode';

/** Where each client reads the snippet from, said with the snippet. */
const CONFIG_FILES: Record<McpClientKind, string> = {
  claude: 'Claude Desktop: claude_desktop_config.json (Settings > Developer > Edit Config)',
  cursor: 'Cursor: ~/.cursor/mcp.json, or .cursor/mcp.json in a project',
  vscode: 'VS Code: .vscode/mcp.json in a workspace, or "MCP: Open User Configuration"',
};

/**
 * The client's configuration for `coral mcp`: Claude Desktop and Cursor take `mcpServers`, VS Code
 * takes `servers` with an explicit `"type": "stdio"`. The command is this Node and this bundle, so it
 * works without coral on PATH; CORAL_HOME goes along when it is set, so the same colony is found.
 */
export function mcpClientConfig(client: McpClientKind, o: { db?: string; demo?: string; colony?: string }, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const args = [join(packageRoot(), 'dist', 'coral.js'), 'mcp'];
  if (o.colony) args.push('--colony', o.colony);
  else if (o.db) args.push('--db', resolve(o.db));
  else if (o.demo) args.push('--demo', o.demo);
  const server: Record<string, unknown> = { command: process.execPath, args };
  if (env.CORAL_HOME) server.env = { CORAL_HOME: resolve(coralHome(env)) };
  if (client === 'vscode') return { servers: { coral: { type: 'stdio', ...server } } };
  return { mcpServers: { coral: server } };
}

/** `coral mcp config`: the JSON an MCP client needs to start `coral mcp`. */
export function mcpConfig(opts: AccessOptions & { client?: McpClientKind }): void {
  const client = opts.client ?? 'claude';
  process.stderr.write(`# ${CONFIG_FILES[client]}\n`);
  process.stdout.write(`${JSON.stringify(mcpClientConfig(client, opts), null, 2)}\n`);
}
