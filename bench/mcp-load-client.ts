/**
 * The MCP side of the ingest-under-load bench, in its own process so that its work does not share
 * the sender's event loop: CLIENTS sessions over Streamable HTTP, each calling the heaviest porcelain
 * tools in a loop until stdin closes. Prints "ready" once every session is initialized, then at the
 * end one JSON line: calls, errors and per-call milliseconds. Args: URL CLIENTS SERVICE [PAUSE_MS]:
 * with a pause, each session waits that long between its calls (the soak's clients, a call every 5 s).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, clientsText, service, pauseText] = process.argv.slice(2);
const pauseMs = Number(pauseText ?? 0);
const TOOLS: [string, Record<string, unknown>][] = [
  ['coral_query_summary', {}],
  ['coral_query_traces', { service }],
  ['coral_query_metrics', { service }],
];

const clients = await Promise.all(Array.from({ length: Number(clientsText) }, async (_, i) => {
  const client = new Client({ name: `bench-${i}`, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}));
process.stdout.write('ready\n');

let stop = false;
process.stdin.on('end', () => (stop = true));
process.stdin.resume();
const ms: number[] = [];
let errors = 0;
await Promise.all(clients.map(async (client, i) => {
  for (let k = i; !stop; k++) {
    const [name, args] = TOOLS[k % TOOLS.length];
    const t = performance.now();
    try {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      if (r.isError) errors++;
    } catch {
      errors++;
    }
    ms.push(performance.now() - t);
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
}));
await Promise.all(clients.map((c) => c.close()));
process.stdout.write(`${JSON.stringify({ calls: ms.length, errors, ms })}\n`);
process.exit(0);
