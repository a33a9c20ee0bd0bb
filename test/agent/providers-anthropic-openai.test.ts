import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIProvider } from '../../src/agent/providers/openai.js';
import { draft2020Schema } from '../../src/agent/providers/schema.js';
import { ToolCallAssembler } from '../../src/agent/providers/tool-call-stream.js';
import { ANTHROPIC_BAD_KEY } from '../support/fake-anthropic.js';
import { OPENAI_BAD_KEY } from '../support/fake-openai.js';
import { INVESTIGATION, type Harness, W, harness, provider, turn } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());

type AnthropicBody = { tools?: { input_schema: Record<string, unknown> }[]; tool_choice?: unknown; messages: unknown[] };

describe('Anthropic against a strict fake (real @anthropic-ai/sdk)', () => {
  it('the forced final round keeps the tools, with tool_choice none, and the answer arrives', async () => {
    const f = await h.fake('anthropic', [INVESTIGATION[0], { text: ['Finding: from the summary alone [1].'] }]);
    const r = await turn(h, provider('anthropic', f), 'q', { maxToolRounds: 1 });
    expect(f.rejections).toEqual([]);
    expect(r.end).toMatchObject({ reason: 'max_rounds' });
    expect(r.answer).toBe('Finding: from the summary alone [1].');
    const last = f.requests[1] as AnthropicBody;
    expect(last.tools?.length).toBeGreaterThan(0);
    expect(last.tool_choice).toEqual({ type: 'none' });
  });

  it('a 3-round investigation with parallel calls passes; schemas are draft 2020-12', async () => {
    const f = await h.fake('anthropic', INVESTIGATION);
    const r = await turn(h, provider('anthropic', f), 'q');
    expect(f.rejections).toEqual([]);
    expect(r.answer).toBe('Finding: payment fails [2].');
    expect(JSON.stringify((f.requests[0] as AnthropicBody).tools)).not.toContain('draft-07');
  });

  it('converts draft-07 schemas to draft 2020-12', () => {
    expect(draft2020Schema({ $schema: 'http://json-schema.org/draft-07/schema#', definitions: { a: { type: 'string' } }, properties: { x: { $ref: '#/definitions/a' }, t: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } })).toEqual({
      $defs: { a: { type: 'string' } },
      properties: { x: { $ref: '#/$defs/a' }, t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    });
  });

  it('retries a stream that starts 200 and then sends event: error overloaded', async () => {
    const f = await h.fake('anthropic', [{ midStreamError: 'overloaded_error' }, { text: ['Answer after the overload.'] }]);
    const r = await turn(h, provider('anthropic', f), 'q');
    expect(f.requests).toHaveLength(2);
    expect(r.answer).toBe('Answer after the overload.');
    expect(r.end).toMatchObject({ reason: 'answered' });
  });

  it('reports a refusal as blocked, and the next request is still valid', async () => {
    const f = await h.fake('anthropic', [{ finish: 'refusal' }, { text: ['ok'] }]);
    const r = await turn(h, provider('anthropic', f), 'q');
    expect(r.end).toMatchObject({ reason: 'blocked' });
    expect(r.messages.at(-1)).toMatchObject({ role: 'model', blocked: 'refusal' });
    const next = await turn(h, provider('anthropic', f), 'again', { messages: r.messages });
    expect(f.rejections).toEqual([]);
    expect(next.answer).toBe('ok');
  });

  it('the strict fake refuses tool history without tools and duplicate ids, as the API does', async () => {
    const f = await h.fake('anthropic', [{ text: ['x'] }]);
    const call = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }] };
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] };
    const post = (body: unknown) => fetch(`${f.url}/v1/messages`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ messages: [{ role: 'user', content: 'q' }, call, result] })).status).toBe(400);
    expect((await post({ tools: [], messages: [{ role: 'user', content: 'q' }, call, result, call, result] })).status).toBe(400);
    expect((await post({ tools: [], messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [] }, { role: 'user', content: 'again' }] })).status).toBe(400);
    expect(f.rejections.map((r) => r.message)).toEqual([
      'Requests which include `tool_use` or `tool_result` blocks must define tools.',
      'messages: `tool_use` ids must be unique',
      'messages.1: all messages must have non-empty content except for the optional final assistant message',
    ]);
  });

  it('a rejected key names the variable to fix', async () => {
    const f = await h.fake('anthropic', [ANTHROPIC_BAD_KEY]);
    const r = await turn(h, provider('anthropic', f), 'q');
    expect(r.error).toMatchObject({ message: expect.stringMatching(/^anthropic:claude-fake: the API key was rejected \(HTTP 401\): invalid x-api-key\. Fix the key in ANTHROPIC_API_KEY/) });
  });
});

describe('OpenAI and Ollama against strict fakes (real openai SDK)', () => {
  it('Ollama: parallel calls all streamed with index 0 stay separate calls', async () => {
    const f = await h.fake('ollama', INVESTIGATION);
    const r = await turn(h, provider('ollama', f), 'q');
    expect(f.rejections).toEqual([]);
    const started = r.events.flatMap((e) => (e.type === 'tool_call_started' ? [[e.tool, e.args]] : []));
    expect(started).toEqual([
      ['coral_query_summary', W],
      ['coral_query_metrics', { service: 'payment', ...W }],
      ['coral_query_traces', { service: 'checkout', max_traces: 1, ...W }],
    ]);
    expect(r.answer).toBe('Finding: payment fails [2].');
  });

  it('groups fragments by id, and by name when a build sends neither id nor index', () => {
    const a = new ToolCallAssembler();
    a.add({ function: { name: 'one', arguments: '{"a":1}' } });
    a.add({ function: { name: 'two', arguments: '{"b":2}' } });
    expect(a.done()).toEqual([{ id: '', name: 'one', args: { a: 1 } }, { id: '', name: 'two', args: { b: 2 } }]);
    const o = new ToolCallAssembler();
    o.add({ index: 0, id: 'c1', function: { name: 'one', arguments: '{"a"' } });
    o.add({ index: 1, id: 'c2', function: { name: 'two', arguments: '' } });
    o.add({ index: 0, function: { arguments: ':1}' } });
    o.add({ index: 1, function: { arguments: '{}' } });
    expect(o.done()).toEqual([{ id: 'c1', name: 'one', args: { a: 1 } }, { id: 'c2', name: 'two', args: {} }]);
  });

  it('OpenAI: the forced final round sends tool_choice none beside the tools', async () => {
    const f = await h.fake('openai', [INVESTIGATION[0], { text: ['done'] }]);
    const r = await turn(h, provider('openai', f), 'q', { maxToolRounds: 1 });
    expect(f.rejections).toEqual([]);
    expect(r.answer).toBe('done');
    expect((f.requests[1] as { tool_choice?: string }).tool_choice).toBe('none');
  });

  it('OpenAI: content_filter is reported as blocked and the follow-up request stays valid', async () => {
    const f = await h.fake('openai', [{ finish: 'content_filter' }, { text: ['ok'] }]);
    const r = await turn(h, provider('openai', f), 'q');
    expect(r.end).toMatchObject({ reason: 'blocked' });
    expect(r.warnings.join(' ')).toMatch(/blocked its answer \(content_filter\)/);
    const next = await turn(h, provider('openai', f), 'again', { messages: r.messages });
    expect(f.rejections).toEqual([]);
    expect(next.answer).toBe('ok');
  });

  it('the strict fake refuses unanswered calls, stray results, duplicate ids and empty assistant messages, as the API does', async () => {
    const f = await h.fake('openai', [{ text: ['x'] }]);
    const post = (messages: unknown[]) => fetch(`${f.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages }) });
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 't', arguments: '{}' } }] });
    const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'r' });
    expect((await post([{ role: 'user', content: 'q' }, call('a'), { role: 'user', content: 'next' }])).status).toBe(400);
    expect((await post([{ role: 'user', content: 'q' }, result('a')])).status).toBe(400);
    expect((await post([{ role: 'user', content: 'q' }, call('a'), result('a'), call('a'), result('a')])).status).toBe(400);
    expect((await post([{ role: 'user', content: 'q' }, { role: 'assistant', content: null }, { role: 'user', content: 'again' }])).status).toBe(400);
    expect(f.rejections.map((r) => r.message.split(':')[0])).toEqual([
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages",
      "Invalid parameter",
      "Duplicate value for 'tool_call_id' of a in message[3]. Please ensure all tool call ids are unique.",
      "Invalid value for 'content'",
    ]);
  });

  it('OpenAI: a rejected key names the variable to fix', async () => {
    const f = await h.fake('openai', [OPENAI_BAD_KEY]);
    const r = await turn(h, provider('openai', f), 'q');
    expect(r.error).toMatchObject({ message: expect.stringMatching(/^openai:gpt-fake: the API key was rejected \(HTTP 401\): Incorrect API key provided: sk-wrong\..*Fix the key in OPENAI_API_KEY/) });
  });

  it('Ollama unreachable: names the URL and what to do', async () => {
    const dead = new OpenAIProvider({ provider: 'ollama', model: 'llama3.2', apiKey: 'ollama', baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 0 });
    const r = await turn(h, dead, 'q');
    expect(r.error).toMatchObject({ message: expect.stringMatching(/cannot reach Ollama at http:\/\/127\.0\.0\.1:9\/v1.*ollama serve.*OLLAMA_BASE_URL.*\/v1/) });
  });

  it('Ollama without /v1 in its URL: says the URL must end in /v1', async () => {
    const f = await h.fake('ollama', [{ text: ['x'] }]);
    const r = await turn(h, new OpenAIProvider({ provider: 'ollama', model: 'llama3.2', apiKey: 'ollama', baseUrl: f.url, maxRetries: 0 }), 'q');
    expect(r.error).toMatchObject({ message: expect.stringMatching(/HTTP 404.*OLLAMA_BASE_URL must end in \/v1/) });
  });

  it('Ollama: warns when the prompt outgrows its context, which it would cut silently', async () => {
    const f = await h.fake('ollama', INVESTIGATION);
    const r = await turn(h, provider('ollama', f, { contextTokens: 4096 }), 'q');
    expect(r.warnings.filter((w) => /more than Ollama's context of 4096 tokens/.test(w))).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/OLLAMA_CONTEXT_LENGTH/);
  });
});
