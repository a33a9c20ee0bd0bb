import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type McpServerConfig, resolveSecret } from './config.js';
import { httpTransport } from './mcp-http.js';

/** A transport for an MCP server from config: a child process over stdio, or Streamable HTTP. */
export function configuredTransport(cfg: McpServerConfig): Transport {
  if ('command' in cfg) {
    // env values may be references (env://VAR), so a token handed to the server need not sit in the file.
    const env = Object.fromEntries(Object.entries(cfg.env ?? {}).map(([k, v]) => [k, /^(env|keyring):\/\//.test(v) ? resolveSecret(v) : v]));
    return new StdioClientTransport({ command: cfg.command, args: cfg.args ?? [], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' });
  }
  return httpTransport(new URL(cfg.url), cfg.token ? resolveSecret(cfg.token) : undefined);
}
