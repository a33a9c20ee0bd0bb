import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

/** A colony that could not be used: `refused` when it runs and said no (sessions, token), else unreachable. */
export class ColonyConnectError extends CoralError {
  constructor(
    message: string,
    hint: string,
    readonly refused: boolean,
  ) {
    super(message, hint);
    this.name = 'ColonyConnectError';
  }
}

/** The message a JSON-RPC error body carries ("Error POSTing to endpoint: {...}"), else the text. */
function serverMessage(text: string): string {
  const at = text.indexOf('{');
  if (at >= 0) {
    try {
      const body = JSON.parse(text.slice(at)) as { error?: { message?: unknown } };
      if (typeof body.error?.message === 'string') return body.error.message;
    } catch {
      // Not JSON: the text as it came.
    }
  }
  return text;
}

/**
 * What connecting to a colony's MCP endpoint at `url` failed on, said for a person: a colony that
 * answered (too many sessions, a token) is not one to start, and saying "start one" sends the user
 * the wrong way in the middle of an incident.
 */
export function colonyConnectError(url: URL, err: unknown): ColonyConnectError {
  const e = (err instanceof StreamableHTTPError ? err : ((err as Error | undefined)?.cause ?? err)) as Error | undefined;
  const code = e instanceof StreamableHTTPError ? e.code : undefined;
  const said = serverMessage(e?.message ?? String(err));
  if (code === 429) {
    return new ColonyConnectError(`The colony at ${url.href} is running but refused a new MCP session: ${said}`, 'Other programs hold its sessions: end the ones you do not need (each `coral` command, console or MCP client holds one while it runs), or retry in a minute; `coral colony serve --max-mcp-sessions N` raises the cap.', true);
  }
  if (code === 401 || code === 403) {
    return new ColonyConnectError(`The colony at ${url.href} is running but refused the connection: ${said}`, 'Give its token with --token-file PATH or CORAL_COLONY_TOKEN (`coral colony serve` prints where its token is), or check --colony.', true);
  }
  if (code !== undefined && code > 0) {
    return new ColonyConnectError(`The colony at ${url.href} answered HTTP ${code}: ${said}`, 'Check --colony: it must be the URL `coral colony serve` printed (its OTLP/HTTP port, e.g. http://127.0.0.1:4318).', true);
  }
  return new ColonyConnectError(`Cannot reach the colony at ${url.href}: ${said}`, 'Start one with `coral colony serve` (it prints its URL), or fix --colony (and its token: --token-file PATH or CORAL_COLONY_TOKEN, if it needs one).', false);
}
