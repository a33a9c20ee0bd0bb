import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent, Message } from '../../src/agent/events.js';
import { DEFAULT_MAX_TOOL_ROUNDS, DEFAULT_TOOL_OUTPUT_TOKENS, runTurn } from '../../src/agent/loop.js';
import type { ModelProvider } from '../../src/agent/providers/types.js';
import { ToolHub } from '../../src/agent/toolhub.js';
import { call, scripted, text } from '../support/scripted-model.js';

/** A real MCP server (in-memory transport): `repeat` answers `n` copies of a character, `wait` answers after `ms`. */
function tools(): McpServer {
  const server = new McpServer({ name: 'tools', version: '1' });
  server.registerTool('repeat', { description: 'n copies of ch', inputSchema: { ch: z.string(), n: z.number() } }, async ({ ch, n }) => ({
    content: [{ type: 'text', text: ch.repeat(n) }],
    structuredContent: { n },
  }));
  server.registerTool('wait', { description: 'answers after ms', inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  return server;
}

let hub: ToolHub;
beforeAll(async () => {
  hub = await ToolHub.connect([{ name: 'toolsrv', server: tools() }]);
});
afterAll(async () => hub.close());

async function run(model: ModelProvider, opts: Partial<Parameters<typeof runTurn>[0]> = {}) {
  const messages: Message[] = opts.messages ?? [];
  const events: AgentEvent[] = [];
  for await (const ev of runTurn({ provider: model, hub, system: 'SYS', messages, question: 'why?', ...opts })) events.push(ev);
  return { events, messages };
}
const warnings = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));

describe('runTurn: what each round sends and reports', () => {
  it('asks with tools allowed, then forbids them on the round after max_tool_rounds, saying so', async () => {
    const model = scripted([[call('a', 'repeat', { ch: 'x', n: 1 })]]);
    const { events, messages } = await run(model, { maxToolRounds: 2 });
    expect(model.requests.map((r) => [r.round, r.toolChoice, r.system])).toEqual([
      [1, 'auto', 'SYS'],
      [2, 'auto', 'SYS'],
      [3, 'none', 'SYS\n\nYou may not call more tools: answer now with what you have, and say what is still unknown.'],
    ]);
    expect(model.requests.every((r) => r.tools.map((t) => t.name).join() === 'repeat,wait')).toBe(true);
    expect(warnings(events)).toEqual(['Reached max_tool_rounds (2): answering with what was found so far.', 'test:scripted returned an empty answer; ask again or try another model.']);
    // The calls asked for on the last round are not run, and the turn ends as max_rounds.
    expect(events.filter((e) => e.type === 'tool_call_started')).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'max_rounds', model: 'test:scripted' });
    expect(messages.at(-1)).toEqual({ role: 'model', text: '', toolCalls: [], model: 'test:scripted', blocked: 'empty answer' });
  });

  it('answers on the last round as max_rounds, not as answered', async () => {
    const model = scripted([[call('a', 'repeat', { ch: 'x', n: 1 })], [text('found it')]]);
    const { events } = await run(model, { maxToolRounds: 1 });
    expect(model.requests.map((r) => r.toolChoice)).toEqual(['auto', 'none']);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'max_rounds', model: 'test:scripted' });
  });

  it('allows the default number of rounds when none is given', async () => {
    const model = scripted([[call('a', 'repeat', { ch: 'x', n: 1 })]]);
    await run(model);
    expect(model.requests).toHaveLength(DEFAULT_MAX_TOOL_ROUNDS + 1);
    expect(model.requests.at(-1)?.toolChoice).toBe('none');
  });

  it('reports each call with its server, arguments, result and a whole-millisecond duration', async () => {
    const model = scripted([[text('Looking. '), call('a', 'repeat', { ch: 'y', n: 3 })], [text('done')]]);
    const before = performance.now();
    const { events, messages } = await run(model);
    const elapsed = performance.now() - before;
    expect(events.find((e) => e.type === 'tool_call_started')).toEqual({ type: 'tool_call_started', id: 'a', server: 'toolsrv', tool: 'repeat', args: { ch: 'y', n: 3 } });
    const finished = events.find((e) => e.type === 'tool_call_finished');
    expect(finished).toMatchObject({ type: 'tool_call_finished', id: 'a', tool: 'repeat', ok: true, text: 'yyy', structured: { n: 3 } });
    expect(finished?.type === 'tool_call_finished' && Number.isInteger(finished.durationMs) && finished.durationMs >= 0 && finished.durationMs <= Math.ceil(elapsed)).toBe(true);
    expect(messages.map((m) => m.role)).toEqual(['user', 'model', 'tool', 'model']);
    expect(messages[1]).toEqual({ role: 'model', text: 'Looking. ', toolCalls: [{ id: 'a', name: 'repeat', args: { ch: 'y', n: 3 } }], model: 'test:scripted' });
    expect(events.filter((e) => e.type === 'message_end')).toEqual([{ type: 'message_end', text: 'done' }]);
  });

  it('passes notices on as warnings and usage as usage events', async () => {
    const model = scripted([[{ type: 'notice', text: 'fell back to b' }, text('ok'), { type: 'usage', inputTokens: 12, outputTokens: 3 }]]);
    const { events } = await run(model);
    expect(events.map((e) => e.type)).toEqual(['user_message', 'warning', 'text_delta', 'usage', 'message_end', 'turn_end']);
    expect(events[1]).toEqual({ type: 'warning', message: 'fell back to b' });
    expect(events[3]).toEqual({ type: 'usage', inputTokens: 12, outputTokens: 3 });
  });
});

describe('runTurn: tool output budget and timeout', () => {
  it('cuts each result the model sees to toolOutputTokens * 4 characters, leaving the event whole', async () => {
    const model = scripted([[call('a', 'repeat', { ch: 'z', n: 1000 }), call('b', 'repeat', { ch: 'w', n: 40 })], [text('done')]]);
    const { events, messages } = await run(model, { toolOutputTokens: 10 });
    const results = messages[2].role === 'tool' ? messages[2].results : [];
    expect(results[0].text.startsWith('z'.repeat(40))).toBe(true);
    expect(results[0].text.startsWith('z'.repeat(41))).toBe(false);
    expect(results[1].text).toBe('w'.repeat(40));
    expect(events.find((e) => e.type === 'tool_call_finished' && e.id === 'a')).toMatchObject({ text: 'z'.repeat(1000) });
  });

  it('keeps results within the default budget whole', async () => {
    const n = DEFAULT_TOOL_OUTPUT_TOKENS * 4;
    const model = scripted([[call('a', 'repeat', { ch: 'q', n })], [text('done')]]);
    const { messages } = await run(model);
    expect(messages[2].role === 'tool' && messages[2].results[0].text).toBe('q'.repeat(n));
  });

  it('fails a call that outlasts toolTimeoutMs, as a result the model sees', async () => {
    const model = scripted([[call('a', 'wait', { ms: 2000 })], [text('done')]]);
    const { messages } = await run(model, { toolTimeoutMs: 50 });
    expect(messages[2].role === 'tool' && messages[2].results[0]).toMatchObject({ ok: false, text: 'wait failed: timed out after 50 ms' });
  });
});

describe('runTurn: refusals, empty answers and failures', () => {
  it('records a blocked answer as a refusal, runs none of its calls, and says why', async () => {
    const model = scripted([[text('I can'), call('a', 'repeat', { ch: 'x', n: 1 }), { type: 'blocked', reason: 'SAFETY' }]]);
    const { events, messages } = await run(model);
    expect(events.filter((e) => e.type === 'tool_call_started')).toEqual([]);
    expect(messages.at(-1)).toEqual({ role: 'model', text: 'I can', toolCalls: [], model: 'test:scripted', blocked: 'SAFETY' });
    expect(warnings(events)).toEqual(['test:scripted blocked its answer (SAFETY); rephrase the question or try another model.']);
    expect(events.slice(-2)).toEqual([{ type: 'message_end', text: 'I can' }, { type: 'turn_end', reason: 'blocked', model: 'test:scripted' }]);
  });

  it('records an empty answer as a refusal, never as an empty message', async () => {
    const { events, messages } = await run(scripted([[]]));
    expect(messages).toEqual([{ role: 'user', text: 'why?' }, { role: 'model', text: '', toolCalls: [], model: 'test:scripted', blocked: 'empty answer' }]);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'blocked', model: 'test:scripted' });
  });

  it('keeps the words said before a model failure and reports the error', async () => {
    const { events, messages } = await run(scripted([{ chunks: [text('partial ')], fail: 'HTTP 500 from the API' }]));
    expect(events.slice(-2)).toEqual([{ type: 'error', message: 'HTTP 500 from the API' }, { type: 'turn_end', reason: 'error', model: 'test:scripted' }]);
    expect(messages.at(-1)).toEqual({ role: 'model', text: 'partial ', toolCalls: [], model: 'test:scripted' });
  });

  it('adds no empty model message when a model fails before saying anything', async () => {
    const { messages } = await run(scripted([{ chunks: [], fail: 'refused' }]));
    expect(messages).toEqual([{ role: 'user', text: 'why?' }]);
  });
});

describe('runTurn: cancellation between steps', () => {
  it('cancelled as the stream ends: keeps the words, runs no tools', async () => {
    const abort = new AbortController();
    const model = scripted([[text('half'), call('a', 'repeat', { ch: 'x', n: 1 })]], () => abort.abort());
    const { events, messages } = await run(model, { signal: abort.signal });
    expect(events.filter((e) => e.type === 'tool_call_started')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'cancelled', model: 'test:scripted' });
    expect(messages.at(-1)).toEqual({ role: 'model', text: 'half', toolCalls: [], model: 'test:scripted' });
  });

  it('cancelled while tools run: pairs the results and asks the model nothing more', async () => {
    const abort = new AbortController();
    const model = scripted([[call('a', 'wait', { ms: 5 })], [text('never')]]);
    const events: AgentEvent[] = [];
    const messages: Message[] = [];
    for await (const ev of runTurn({ provider: model, hub, system: 'SYS', messages, question: 'q', signal: abort.signal })) {
      events.push(ev);
      if (ev.type === 'tool_call_started') abort.abort();
    }
    expect(model.requests).toHaveLength(1);
    expect(messages.map((m) => m.role)).toEqual(['user', 'model', 'tool']);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'cancelled', model: 'test:scripted' });
  });

  it('a model that throws because it was cancelled ends the turn as cancelled, not as an error', async () => {
    const abort = new AbortController();
    const model = scripted([{ chunks: [text('so far')], fail: 'aborted' }], () => abort.abort());
    const { events, messages } = await run(model, { signal: abort.signal });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'cancelled', model: 'test:scripted' });
    expect(messages.at(-1)).toMatchObject({ role: 'model', text: 'so far' });
  });
});
