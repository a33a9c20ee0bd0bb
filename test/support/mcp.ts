import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createColonyServer, type ColonyServerOptions } from '../../src/colony/server.js';
import type { ColonyStore } from '../../src/colony/store/store.js';
import type { Nanos } from '../../src/core/time.js';

export interface CallResult {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
}

/** A real MCP client talking to a colony server over the SDK's in-memory transport. */
export async function inMemoryClient(store: ColonyStore, now: () => Nanos, opts: ColonyServerOptions & { maxResponseChars?: number } = {}) {
  const server = createColonyServer({ store, now, maxResponseChars: opts.maxResponseChars ?? 16_000 }, opts);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'coral-test', version: '1' });
  await client.connect(clientSide);
  return {
    client,
    async call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
      const r = await client.callTool({ name, arguments: args });
      return {
        text: (r.content as { text: string }[]).map((c) => c.text).join('\n'),
        structured: (r.structuredContent ?? {}) as Record<string, unknown>,
        isError: r.isError === true,
      };
    },
    close: () => client.close(),
  };
}
