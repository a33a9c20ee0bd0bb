import { describe, expect, it } from 'vitest';
import { withUniqueIds } from '../../src/agent/call-ids.js';
import type { Message } from '../../src/agent/events.js';
import { apiMessage, providerFailure } from '../../src/agent/providers/errors.js';
import { modelText } from '../../src/agent/providers/history.js';
import { parseRetryAfter, parseRetryInfo, retryDecision } from '../../src/agent/providers/retry.js';
import { citationsOf } from '../../src/commands/ask-output.js';
import { colonyOf } from '../../src/commands/ask.js';

describe('retry timing', () => {
  it('reads Retry-After in seconds and as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 10:00:10 GMT', Date.parse('Thu, 26 Nov 2026 10:00:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it("reads google.rpc.RetryInfo from Gemini's error body", () => {
    const body = JSON.stringify({ error: { code: 429, details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure' }, { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37.5s' }] } });
    expect(parseRetryInfo(body)).toBe(37_500);
    expect(parseRetryInfo('not json')).toBeNull();
  });

  it('waits what was asked, backs off otherwise, and gives up past the cap or the attempts', () => {
    expect(retryDecision({ status: 429, attempt: 1, maxAttempts: 3, askedMs: 2000 })).toEqual({ retry: true, delayMs: 2000 });
    expect(retryDecision({ status: 503, attempt: 2, maxAttempts: 3, askedMs: null, baseMs: 100 })).toEqual({ retry: true, delayMs: 200 });
    expect(retryDecision({ status: 429, attempt: 1, maxAttempts: 3, askedMs: 60_000, capMs: 30_000 })).toMatchObject({ retry: false, reason: expect.stringMatching(/wait 60 s/) });
    expect(retryDecision({ status: 429, attempt: 3, maxAttempts: 3, askedMs: 10 })).toEqual({ retry: false });
    expect(retryDecision({ status: 400, attempt: 1, maxAttempts: 3, askedMs: null })).toEqual({ retry: false });
  });
});

describe('call ids', () => {
  it('keeps unique ids and replaces missing, repeated or malformed ones', () => {
    let n = 0;
    const fresh = () => `call_${++n}`;
    const history: Message[] = [{ role: 'model', text: '', toolCalls: [{ id: 'a', name: 't', args: {} }] }];
    const out = withUniqueIds([{ id: 'a', name: 't', args: {} }, { id: '', name: 't', args: {} }, { id: 'b', name: 't', args: {} }, { id: 'b', name: 't', args: {} }, { id: 'bad id!', name: 't', args: {} }], history, fresh);
    expect(out.map((c) => c.id)).toEqual(['call_1', 'call_2', 'b', 'call_3', 'call_4']);
  });
});

describe('history text', () => {
  it('never sends an empty assistant message', () => {
    expect(modelText({ role: 'model', text: '', toolCalls: [] })).toBe('[No answer.]');
    expect(modelText({ role: 'model', text: '', toolCalls: [], blocked: 'SAFETY' })).toBe('[No answer: the provider blocked this response (SAFETY).]');
    expect(modelText({ role: 'model', text: '', toolCalls: [{ id: 'x', name: 't', args: {} }] })).toBe('');
  });
});

describe('errors a user can act on', () => {
  it('extracts the message from SDK error texts and names the key to fix', () => {
    expect(apiMessage('401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}')).toBe('invalid x-api-key');
    expect(apiMessage('503 Service Unavailable')).toBe('Service Unavailable');
    expect(providerFailure('openai:gpt-4o', 401, '401 Incorrect API key provided.', { source: 'MY_KEY (ai.ask.api_keys.openai: env://MY_KEY)', configKey: 'ai.ask.api_keys.openai' }).message)
      .toBe('openai:gpt-4o: the API key was rejected (HTTP 401): Incorrect API key provided. Fix the key in MY_KEY (ai.ask.api_keys.openai: env://MY_KEY), or point ai.ask.api_keys.openai at the right one (env://VARIABLE).');
    expect(providerFailure('google:g', 500, '{"error":{"message":"boom"}}').message).toBe('google:g: HTTP 500: boom');
  });
});

describe('citations', () => {
  it('pairs each [n] with its sentences and the data of the n-th call', () => {
    const calls = [
      { tool: 'a', server: 'colony', args: {}, ok: true, text: 'A data' },
      { tool: 'b', server: 'colony', args: { x: 1 }, ok: true, text: 'B data' },
    ];
    const c = citationsOf('Payment fails [2]. Since 10:34 [1, 2]. Unknown [7]. [eBPF] only.', calls);
    expect(c).toEqual([
      { ref: 1, tool: 'a', server: 'colony', args: {}, ok: true, claims: ['Since 10:34 [1, 2].'], data: 'A data' },
      { ref: 2, tool: 'b', server: 'colony', args: { x: 1 }, ok: true, claims: ['Payment fails [2].', 'Since 10:34 [1, 2].'], data: 'B data' },
    ]);
  });
});

describe('--continue colony', () => {
  it('maps a conversation colony back to flags', () => {
    expect(colonyOf('demo:healthy')).toEqual({ demo: 'healthy' });
    expect(colonyOf('http://h:4318', 't')).toEqual({ colony: 'http://h:4318', token: 't' });
    expect(colonyOf('/tmp/c.duckdb')).toEqual({ db: '/tmp/c.duckdb' });
    expect(colonyOf('default')).toEqual({});
  });
});
