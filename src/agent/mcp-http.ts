import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CoralError } from '../core/errors.js';
import { tokenTransportProblem } from '../core/net.js';

/** How long closing waits for the server to acknowledge the session's end. */
const END_SESSION_WAIT_MS = 2000;

/**
 * Ends its session when closed (DELETE), so that it does not count against the server's session
 * quota for the next minutes (a colony refuses new sessions beyond it, rather than evict ones in use).
 */
class SessionEndingTransport extends StreamableHTTPClientTransport {
  override async close(): Promise<void> {
    if (this.sessionId !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((done) => {
        timer = setTimeout(done, END_SESSION_WAIT_MS);
        timer.unref();
      });
      await Promise.race([this.terminateSession().catch(() => undefined), waited]);
      clearTimeout(timer);
    }
    await super.close();
  }
}

/**
 * Streamable HTTP to an MCP server, with a bearer token when there is one. A token never travels in
 * plain text beyond this machine: the transport is refused before any connection is made.
 */
export function httpTransport(url: URL, token: string | undefined): StreamableHTTPClientTransport {
  const problem = token ? tokenTransportProblem(url) : null;
  if (problem) throw new CoralError(`Not connecting to ${url.origin}: ${problem}.`, 'Use an https:// URL for a remote MCP server or colony.');
  return new SessionEndingTransport(url, token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined);
}

/** A running colony's MCP endpoint from its base URL (given with or without /mcp). */
export function colonyMcpUrl(base: string): URL {
  const trimmed = base.replace(/\/+$/, '');
  try {
    return new URL(trimmed.endsWith('/mcp') ? trimmed : `${trimmed}/mcp`);
  } catch {
    throw new CoralError(`Invalid --colony "${base}".`, 'Expected the URL of a running colony, e.g. http://127.0.0.1:4318.');
  }
}

/** The transport to a running colony, with exactly the token resolveColonyChoice paired with its URL. */
export function colonyTransport(base: string, token: string | undefined): { url: URL; transport: StreamableHTTPClientTransport } {
  const url = colonyMcpUrl(base);
  return { url, transport: httpTransport(url, token) };
}
