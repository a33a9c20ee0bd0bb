import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ToolResult } from './events.js';
import type { ToolSpec } from './providers/types.js';

/**
 * One tool list over several MCP servers (the colony and Honeycomb in-process, a remote colony over
 * Streamable HTTP, servers from config): the agent calls tools by name and never knows where they run.
 */
interface Connected {
  name: string;
  client: Client;
  /** Calls wait for this (a demo colony still loading), so the loop can start at once. */
  ready?: Promise<void>;
  /** What an `early` call waits for instead: the first data (a demo's newest minutes). */
  early?: Promise<void>;
}

/**
 * The SDK's output-schema validation (ajv), compiled when a tool's result is first checked instead
 * of for every tool when the tools are listed: that compiled some 20 schemas, over a second of
 * CPU on a busy machine, before the console could make its first call.
 */
export function lazyValidator(inner: jsonSchemaValidator = new AjvJsonSchemaValidator()): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      let compiled: JsonSchemaValidator<T> | null = null;
      return (input) => (compiled ??= inner.getValidator<T>(schema))(input);
    },
  };
}

/**
 * For the servers in this process: their McpServer already checks each result against the tool's
 * output schema (zod) before sending it, so a client-side check would only repeat it, at the cost of
 * an ajv compile per tool (~50 ms of CPU on the console's first call, which the first trace waits for).
 */
export const checkedByServer: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

export class ToolHub {
  private readonly owner = new Map<string, Connected>();
  private specs: ToolSpec[] = [];

  /** Optional servers that could not be reached, in words. */
  readonly warnings: string[] = [];

  private constructor(private readonly servers: Connected[], private readonly isEnabled: (tool: string) => boolean) {}

  /**
   * Connects every server. The built-in ones must connect; an optional one (from config) that
   * fails is left out with a warning rather than stopping the investigation.
   */
  static async connect(entries: { name: string; server?: McpServer; transport?: Transport; ready?: Promise<void>; early?: Promise<void>; optional?: boolean }[], o: { isEnabled?: (tool: string) => boolean } = {}): Promise<ToolHub> {
    const servers: Connected[] = [];
    const warnings: string[] = [];
    for (const e of entries) {
      const client = new Client({ name: 'coral-agent', version: '1' }, { jsonSchemaValidator: e.server ? checkedByServer : lazyValidator() });
      try {
        if (e.server) {
          const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
          await e.server.connect(serverSide);
          await client.connect(clientSide);
        } else if (e.transport) {
          await client.connect(e.transport);
        } else {
          throw new Error(`tool server ${e.name} has neither a server nor a transport`);
        }
      } catch (err) {
        if (!e.optional) throw err;
        warnings.push(`MCP server ${e.name} is unavailable (${(err as Error).message}); its tools are left out.`);
        continue;
      }
      servers.push({ name: e.name, client, ready: e.ready, early: e.early });
    }
    const hub = new ToolHub(servers, o.isEnabled ?? (() => true));
    hub.warnings.push(...warnings);
    await hub.refresh();
    return hub;
  }

  private async refresh(): Promise<void> {
    this.specs = [];
    this.owner.clear();
    for (const s of this.servers) {
      for (const t of (await s.client.listTools()).tools) {
        if (this.owner.has(t.name) || !this.isEnabled(t.name)) continue; // first server wins a name; a disabled tool is not offered
        this.owner.set(t.name, s);
        this.specs.push({ name: t.name, description: t.description ?? '', parameters: t.inputSchema as Record<string, unknown> });
      }
    }
  }

  tools(): ToolSpec[] {
    return this.specs;
  }

  serverOf(tool: string): string {
    return this.owner.get(tool)?.name ?? 'unknown';
  }

  /**
   * Calls a tool; never throws: failures, timeouts and unknown tools come back as results with ok=false.
   * `early`: answer from the data loaded so far (the console's first look), not after the whole load.
   */
  async call(id: string, name: string, args: Record<string, unknown>, opts: { timeoutMs: number; signal?: AbortSignal; early?: boolean }): Promise<ToolResult> {
    const s = this.owner.get(name);
    if (!s) return { id, name, ok: false, text: `No tool named ${name}. Available: ${this.specs.map((t) => t.name).join(', ')}.` };
    try {
      await (opts.early ? (s.early ?? s.ready) : s.ready);
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      const r = await s.client.callTool({ name, arguments: args }, undefined, { signal, timeout: opts.timeoutMs });
      const text = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
      return { id, name, ok: r.isError !== true, text, structured: r.structuredContent as Record<string, unknown> | undefined };
    } catch (err) {
      const msg = opts.signal?.aborted ? 'cancelled' : (err as Error).name === 'TimeoutError' || /timed? ?out/i.test((err as Error).message) ? `timed out after ${opts.timeoutMs} ms` : (err as Error).message;
      return { id, name, ok: false, text: `${name} failed: ${msg}` };
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.client.close()));
  }
}
