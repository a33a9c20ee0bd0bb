/**
 * Tool and prompt arguments are strict: a misspelt or unknown argument is a tool error that names
 * the likely intended argument and every accepted one, never silently dropped (which would answer
 * an unfiltered question as if it were the filtered one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { ALL_TOOLS } from '../../src/colony/tools/index.js';
import { HoneycombClient } from '../../src/honeycomb/api.js';
import { createHoneycombServer } from '../../src/honeycomb/tools.js';
import { parseToolInput, unknownArgumentsMessage } from '../../src/core/input.js';
import { likelyMeant } from '../../src/core/closest.js';
import { inMemoryClient } from '../support/mcp.js';

const NOW = 1_700_000_000_000_000_000n;
let store: ColonyStore;
let mcp: Awaited<ReturnType<typeof inMemoryClient>>;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
  mcp = await inMemoryClient(store, () => NOW);
});
afterAll(async () => {
  await mcp.close();
  await store.close();
});

describe('colony tools over MCP', () => {
  it('refuses a misspelt filter with the closest accepted name', async () => {
    const r = await mcp.call('coral_query_metrics', { service: 'checkout', protcol: 'sql' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/unknown argument 'protcol'; did you mean 'protocol'\? Accepted: service, time_range, .*protocol/);
  });

  it('refuses {"text": ...} on the logs tool and lists search among the accepted', async () => {
    const r = await mcp.call('coral_query_telemetry_logs', { text: 'timeout' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown argument 'text'");
    expect(r.text).toMatch(/Accepted: .*\bsearch\b/);
  });

  it('every tool refuses an argument it does not define, and its schema says so', async () => {
    const listed = (await mcp.client.listTools()).tools;
    for (const def of ALL_TOOLS.filter((t) => !t.deprecatedAliasOf)) {
      const r = await mcp.call(def.name, { no_such_argument: 1 });
      expect(r.isError, def.name).toBe(true);
      expect(r.text, def.name).toContain(`unknown argument 'no_such_argument'. Accepted: ${Object.keys(def.input).join(', ')}`);
      expect(listed.find((t) => t.name === def.name)?.inputSchema, def.name).toMatchObject({ additionalProperties: false });
    }
  });

  it('still answers correctly spelt arguments', async () => {
    const r = await mcp.call('coral_query_telemetry_logs', { search: 'timeout', time_range: '1h' });
    expect(r.isError).toBe(false);
  });

  it('refuses an unknown argument to the investigate prompt', async () => {
    await expect(mcp.client.getPrompt({ name: 'investigate', arguments: { sympton: 'slow' } }))
      .rejects.toThrow(/unknown argument 'sympton'; did you mean 'symptom'\?/);
    const ok = await mcp.client.getPrompt({ name: 'investigate', arguments: { symptom: 'slow' } });
    expect(ok.messages).toHaveLength(1);
  });
});

describe('Honeycomb tools over MCP', () => {
  it('refuses a misspelt argument before calling Honeycomb', async () => {
    const server = createHoneycombServer(new HoneycombClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' }));
    const [s, c] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    const r = await client.callTool({ name: 'honeycomb_search_columns', arguments: { query: 'latency', limt: 5 } });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0].text).toContain("unknown argument 'limt'; did you mean 'limit'? Accepted: query, dataset, limit, offset, tie_break");
    const s2 = await client.callTool({ name: 'honeycomb_get_environment_summary', arguments: { sample_columns: 3 } });
    expect(s2.isError).toBe(true);
    expect((s2.content as { text: string }[])[0].text).toMatch(/unknown argument 'sample_columns'; did you mean '(include_sample_columns|sample_column_count)'/);
    await client.close();
  });
});

describe('the CLI path (parseToolInput)', () => {
  it('refuses what the MCP server refuses', () => {
    const logs = ALL_TOOLS.find((t) => t.name === 'coral_query_telemetry_logs')!;
    expect(() => parseToolInput(logs.name, logs.input, { serch: 'x' })).toThrow(/unknown argument 'serch'; did you mean 'search'\?/);
  });
});

describe('likelyMeant and the message', () => {
  it('suggests a typo, not an unrelated word', () => {
    expect(likelyMeant('protcol', ['service', 'protocol'])).toBe('protocol');
    expect(likelyMeant('max', ['service', 'max_traces'])).toBe('max_traces');
    expect(likelyMeant('text', ['service', 'level', 'search', 'trace_id', 'limit'])).toBeUndefined();
    expect(likelyMeant('x', [])).toBeUndefined();
  });
  it('names every unknown key', () => {
    expect(unknownArgumentsMessage(['a', 'b'], ['c'])).toBe("unknown argument 'a'. Accepted: c\nunknown argument 'b'. Accepted: c");
  });
});
