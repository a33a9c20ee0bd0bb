import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { colonyTransport } from '../agent/mcp-http.js';

/**
 * Relays MCP messages between stdio (a desktop client that can only start a command) and a running
 * colony's Streamable HTTP endpoint, unchanged, so the client sees the colony's own tools,
 * resources and prompts. Errors reaching the colony go back to the client as JSON-RPC errors.
 */
export async function bridgeStdioToColony(base: string, token?: string): Promise<void> {
  const { url, transport: remote } = colonyTransport(base, token);
  const local = new StdioServerTransport();
  const initializeIds = new Set<string | number>();
  const closed = new Promise<void>((done) => {
    local.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  local.onmessage = (msg: JSONRPCMessage) => {
    if ('method' in msg && msg.method === 'initialize' && 'id' in msg) initializeIds.add(msg.id);
    remote.send(msg).catch((err: Error) => {
      process.stderr.write(`coral mcp: ${url.href}: ${err.message}\n`);
      if ('id' in msg && 'method' in msg) {
        void local.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: `The colony at ${url.href} did not answer: ${err.message}. Is \`coral colony serve\` running?` } });
      }
    });
  };
  remote.onmessage = (msg: JSONRPCMessage) => {
    // Later requests must carry the negotiated version in their headers, as the SDK client would send it.
    if ('result' in msg && initializeIds.has(msg.id)) {
      initializeIds.delete(msg.id);
      const version = (msg.result as { protocolVersion?: string }).protocolVersion;
      if (version) remote.setProtocolVersion(version);
    }
    void local.send(msg);
  };
  remote.onerror = (err) => process.stderr.write(`coral mcp: ${url.href}: ${err.message}\n`);
  await remote.start();
  await local.start();
  process.stderr.write(`coral mcp: bridging stdio to the colony at ${url.href}\n`);
  await closed;
  await remote.terminateSession().catch(() => undefined);
  await remote.close();
}
