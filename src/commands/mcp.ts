import { join, resolve } from 'node:path';
import { packageRoot } from '../core/package-root.js';
import { createColonyServer } from '../colony/server.js';
import { type AccessOptions, openLocalStore } from './colony-access.js';
import { createToolContext } from '../colony/tools/types.js';

/** `coral mcp`: the colony's tools over stdio, for Claude Desktop, IDEs and other MCP clients. */
export async function mcpServe(opts: AccessOptions & { listDeprecatedTools?: boolean }): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  // stdout is the protocol channel: everything human goes to stderr.
  const store = await openLocalStore(opts);
  const server = createColonyServer(createToolContext(store), { listDeprecatedTools: opts.listDeprecatedTools });
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

/** `coral mcp config`: the JSON an MCP client needs to start `coral mcp`. */
export function mcpConfig(opts: AccessOptions): void {
  const args = [join(packageRoot(), 'dist', 'coral.js'), 'mcp'];
  if (opts.db) args.push('--db', resolve(opts.db));
  if (opts.demo) args.push('--demo', opts.demo);
  process.stdout.write(`${JSON.stringify({ mcpServers: { coral: { command: process.execPath, args } } }, null, 2)}\n`);
}
