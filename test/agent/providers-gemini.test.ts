import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/agent/events.js';
import { FOREIGN_CALL_SIGNATURE, GeminiProvider } from '../../src/agent/providers/gemini.js';
import { GEMINI_SCHEMA_KEYWORDS, geminiSchema } from '../../src/agent/providers/schema.js';
import { GEMINI_BAD_KEY, geminiQuota } from '../support/fake-gemini.js';
import { INVESTIGATION, type Harness, W, callIds, harness, provider, turn } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());

type GeminiBody = { contents: { role: string; parts: Record<string, unknown>[] }[]; tools?: { functionDeclarations: { parametersJsonSchema: unknown }[] }[] };

describe('Gemini against a strict fake (real @google/genai)', () => {
  it('sends each thought signature back on its call, so a 3-round investigation with parallel calls passes', async () => {
    const f = await h.fake('gemini', INVESTIGATION);
    const r = await turn(h, provider('gemini', f), 'Why do checkouts fail?');
    expect(f.rejections).toEqual([]);
    expect(r.end).toMatchObject({ type: 'turn_end', reason: 'answered' });
    expect(r.answer).toBe('Finding: payment fails [2].');
    const third = f.requests[2] as GeminiBody;
    const modelParts = third.contents.filter((c) => c.role === 'model').map((c) => c.parts.filter((p) => p.functionCall));
    // The signature is on the first call of each response only, exactly as Gemini sent it.
    expect(modelParts.map((ps) => ps.map((p) => typeof p.thoughtSignature === 'string'))).toEqual([[true], [true, false]]);
  });

  it('gives calls without ids ids unique in the conversation, never call-1 twice', async () => {
    const f = await h.fake('gemini', [...INVESTIGATION, ...INVESTIGATION]);
    const messages: Message[] = [];
    await turn(h, provider('gemini', f), 'first', { messages });
    await turn(h, provider('gemini', f), 'second', { messages });
    const ids = callIds(messages);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(ids.every((id) => /^call_[0-9a-f]{16}$/.test(id))).toBe(true);
    // Gemini got the same ids back on the calls and their responses.
    const last = f.requests.at(-1) as GeminiBody;
    const sent = last.contents.flatMap((c) => c.parts.flatMap((p) => [(p.functionCall as { id?: string })?.id, (p.functionResponse as { id?: string })?.id])).filter(Boolean);
    expect(new Set(sent)).toEqual(new Set(ids));
  });

  it('marks calls another model made with the documented signature for foreign calls', async () => {
    const f = await h.fake('gemini', [{ text: ['Same as before.'] }]);
    const messages: Message[] = [
      { role: 'user', text: 'q' },
      { role: 'model', text: '', toolCalls: [{ id: 'toolu_1', name: 'coral_query_summary', args: W }, { id: 'toolu_2', name: 'coral_query_metrics', args: W }], model: 'anthropic:claude-fake' },
      { role: 'tool', results: [{ id: 'toolu_1', name: 'coral_query_summary', ok: true, text: 'a' }, { id: 'toolu_2', name: 'coral_query_metrics', ok: true, text: 'b' }] },
    ];
    // A fallback mid-turn: the current turn holds Anthropic's calls.
    const chunks = [];
    for await (const c of provider('gemini', f).generate({ system: 's', messages, tools: h.hub.tools(), round: 2 }, new AbortController().signal)) chunks.push(c);
    expect(f.rejections).toEqual([]);
    const parts = (f.requests[0] as GeminiBody).contents[1].parts;
    expect(parts.map((p) => p.thoughtSignature)).toEqual([FOREIGN_CALL_SIGNATURE, undefined]);
  });

  it('the strict fake refuses a call sent back without its signature, as Gemini 3 does', async () => {
    const f = await h.fake('gemini', INVESTIGATION);
    const r = await turn(h, provider('gemini', f), 'q');
    expect(r.end).toMatchObject({ reason: 'answered' });
    const messages = r.messages.map((m) => (m.role === 'model' ? { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, signature: 'forged' })) } : m));
    const again = await turn(h, provider('gemini', f), 'next', { messages: messages.slice(0, 3) as Message[] });
    expect(again.end).toMatchObject({ reason: 'answered' });
    // Only the current turn is checked; a forged signature in it is refused.
    const cur: Message[] = [{ role: 'user', text: 'x' }, ...(messages.slice(1, 3) as Message[])];
    const chunks = [];
    await expect((async () => {
      for await (const c of provider('gemini', f).generate({ system: 's', messages: cur, tools: h.hub.tools(), round: 2 }, new AbortController().signal)) chunks.push(c);
    })()).rejects.toThrow(/HTTP 400: Function call is missing a thought_signature/);
  });

  it('the strict fake refuses empty parts and unanswered calls, as the API does', async () => {
    const f = await h.fake('gemini', [{ text: ['x'] }]);
    const post = (contents: unknown[]) => fetch(`${f.url}/v1beta/models/g:generateContent`, { method: 'POST', body: JSON.stringify({ contents }) });
    expect((await post([{ role: 'user', parts: [{ text: 'q' }] }, { role: 'model', parts: [] }, { role: 'user', parts: [{ text: 'again' }] }])).status).toBe(400);
    const call = { role: 'model', parts: [{ functionCall: { name: 't', args: {} }, thoughtSignature: 'skip_thought_signature_validator' }] };
    expect((await post([{ role: 'user', parts: [{ text: 'q' }] }, call, { role: 'user', parts: [{ functionResponse: { name: 'other', response: {} } }] }])).status).toBe(400);
    expect(f.rejections.map((r) => r.message)).toEqual([
      '* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.',
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    ]);
  });

  it('cleans any tool schema (a user MCP server\'s too) to the JSON Schema subset Gemini accepts', async () => {
    const odd = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { env: { type: 'string', enum: ['prod', 'staging', null] } },
      properties: {
        service: { type: 'string', pattern: '^[a-z]+$', minLength: 1, default: 'checkout' },
        env: { $ref: '#/definitions/env' },
        kind: { const: 'deploy' },
        limit: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 },
        tags: { type: 'array', items: { type: 'string', examples: ['a'] }, uniqueItems: true },
        pattern: { type: 'string' },
      },
      required: ['service'],
      additionalProperties: false,
      allOf: [{ required: ['env'] }],
    };
    const f = await h.fake('gemini', [{ text: ['ok'] }]);
    const tools = [{ name: 'user_tool', description: 'from a user MCP server', parameters: odd }];
    for await (const _ of new GeminiProvider({ model: 'g', apiKey: 'k', baseUrl: f.url }).generate({ system: 's', messages: [{ role: 'user', text: 'q' }], tools }, new AbortController().signal)) void _;
    expect(f.rejections).toEqual([]);
    const cleaned = geminiSchema(odd) as { properties: Record<string, Record<string, unknown>>; $defs: unknown };
    expect(cleaned.$defs).toEqual({ env: { type: 'string', enum: ['prod', 'staging'] } });
    expect(cleaned.properties.env).toEqual({ $ref: '#/$defs/env' });
    expect(cleaned.properties.kind).toEqual({ enum: ['deploy'] });
    expect(cleaned.properties.service.description).toMatch(/pattern: "\^\[a-z\]\+\$"/);
    // A property named like a keyword is a name, not a keyword.
    expect(cleaned.properties.pattern).toEqual({ type: 'string' });
    const keys = (s: unknown): string[] => (Array.isArray(s) ? s.flatMap(keys) : typeof s === 'object' && s !== null ? Object.entries(s).flatMap(([k, v]) => [k, ...keys(v)]) : []);
    const stray = keys(cleaned).filter((k) => !GEMINI_SCHEMA_KEYWORDS.has(k) && !['service', 'env', 'kind', 'limit', 'tags', 'pattern'].includes(k));
    expect(stray).toEqual([]);
    // And the raw schema is what the fake (like the API) refuses.
    const raw = await h.fake('gemini', [{ text: ['ok'] }]);
    const body = { contents: [{ role: 'user', parts: [{ text: 'q' }] }], tools: [{ functionDeclarations: [{ name: 't', parametersJsonSchema: odd }] }] };
    const res = await fetch(`${raw.url}/v1beta/models/g:generateContent`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
  });

  it('retries a 429 after the Retry-After the server asked for', async () => {
    const f = await h.fake('gemini', [{ ...geminiQuota('0s'), headers: { 'retry-after': '1' } }, { text: ['fine'] }]);
    const t = performance.now();
    const r = await turn(h, provider('gemini', f, { maxAttempts: 3 }), 'q');
    expect(r.answer).toBe('fine');
    expect(f.requests).toHaveLength(2);
    expect(performance.now() - t).toBeGreaterThanOrEqual(950);
  });

  it('retries a 429 after the RetryInfo delay in its body', async () => {
    const f = await h.fake('gemini', [geminiQuota('0.4s'), geminiQuota('0.4s'), { text: ['fine'] }]);
    const t = performance.now();
    const r = await turn(h, provider('gemini', f, { maxAttempts: 3, retryBaseMs: 1 }), 'q');
    expect(r.answer).toBe('fine');
    expect(f.requests).toHaveLength(3);
    expect(performance.now() - t).toBeGreaterThanOrEqual(750);
  });

  it('gives up at once when the server asks for a wait longer than the cap, saying so', async () => {
    const f = await h.fake('gemini', [geminiQuota('120s'), { text: ['never'] }]);
    const t = performance.now();
    const r = await turn(h, provider('gemini', f, { maxAttempts: 3 }), 'q');
    expect(performance.now() - t).toBeLessThan(2000);
    expect(f.requests).toHaveLength(1);
    expect(r.error).toMatchObject({ message: expect.stringMatching(/HTTP 429: You exceeded your current quota.*asks to wait 120 s before retrying, longer than coral waits \(30 s\)/) });
  });

  it('reports a SAFETY block as blocked, records it as such, and the conversation goes on', async () => {
    const f = await h.fake('gemini', [{ finish: 'SAFETY' }, { text: ['Rephrased answer.'] }]);
    const r = await turn(h, provider('gemini', f), 'something unsafe');
    expect(r.end).toMatchObject({ type: 'turn_end', reason: 'blocked' });
    expect(r.warnings.join(' ')).toMatch(/blocked its answer \(SAFETY\)/);
    expect(r.messages.at(-1)).toMatchObject({ role: 'model', text: '', blocked: 'SAFETY' });
    const next = await turn(h, provider('gemini', f), 'try again', { messages: r.messages });
    expect(f.rejections).toEqual([]);
    expect(next.answer).toBe('Rephrased answer.');
    expect(JSON.stringify((f.requests[1] as GeminiBody).contents[1])).toMatch(/No answer: the provider blocked this response \(SAFETY\)/);
  });

  it('a rejected key names the variable to fix, not raw JSON', async () => {
    const f = await h.fake('gemini', [GEMINI_BAD_KEY]);
    const r = await turn(h, provider('gemini', f), 'q');
    expect(r.error).toMatchObject({ message: 'google:gemini-test: the API key was rejected (HTTP 400): API key not valid. Please pass a valid API key. Fix the key in GEMINI_API_KEY, or point ai.ask.api_keys.google at the right one (env://VARIABLE).' });
  });
});
