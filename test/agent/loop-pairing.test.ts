import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent, Message } from '../../src/agent/events.js';
import { runTurn } from '../../src/agent/loop.js';
import { ToolHub } from '../../src/agent/toolhub.js';
import { call, scripted, text } from '../support/scripted-model.js';

/** A real MCP server (in-memory transport) whose tool answers after the delay it is asked for. */
function sleeper(): McpServer {
  const server = new McpServer({ name: 'sleeper', version: '1' });
  server.registerTool('wait', { description: 'answers after ms milliseconds', inputSchema: { ms: z.number(), label: z.string() } }, async ({ ms, label }) => {
    await new Promise((r) => setTimeout(r, ms));
    return { content: [{ type: 'text', text: `${label} after ${ms} ms` }] };
  });
  return server;
}

/** A model that asks for the given calls in its first round and answers in the second. */
const asking = (calls: { id: string; ms: number; label: string }[]) => scripted([calls.map((c) => call(c.id, 'wait', { ms: c.ms, label: c.label })), [text('done')]]);

let hub: ToolHub;
beforeAll(async () => {
  hub = await ToolHub.connect([{ name: 'sleeper', server: sleeper() }]);
});
afterAll(async () => hub.close());

describe('runTurn pairs tool results with their calls', () => {
  it('sends results in call order even when the calls finish in another order', async () => {
    // The first call is the slowest: finishing order is c3, c2, c1.
    const model = asking([{ id: 'c1', ms: 150, label: 'first' }, { id: 'c2', ms: 60, label: 'second' }, { id: 'c3', ms: 0, label: 'third' }]);
    const messages: Message[] = [];
    const events: AgentEvent[] = [];
    for await (const ev of runTurn({ provider: model, hub, system: 's', messages, question: 'q' })) events.push(ev);

    // Finishing order really differs from call order here, or this test could not tell the two apart.
    expect(events.filter((e) => e.type === 'tool_call_finished').map((e) => e.type === 'tool_call_finished' && e.id)).toEqual(['c3', 'c2', 'c1']);
    const tool = messages[2];
    expect(tool.role).toBe('tool');
    expect(tool.role === 'tool' && tool.results.map((r) => [r.id, r.text])).toEqual([
      ['c1', 'first after 150 ms'],
      ['c2', 'second after 60 ms'],
      ['c3', 'third after 0 ms'],
    ]);
    // What the model got back in its second round: its calls, then their results, in the same order.
    const seen = model.requests[1].messages;
    expect(seen.map((m) => m.role)).toEqual(['user', 'model', 'tool']);
    const [, asked, answered] = seen;
    expect(asked.role === 'model' && asked.toolCalls.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(answered.role === 'tool' && answered.results.map((r) => r.id)).toEqual(['c1', 'c2', 'c3']);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'answered', model: 'test:scripted' });
  });
});
