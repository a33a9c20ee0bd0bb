/**
 * Local fake servers for the Gemini, OpenAI and Anthropic HTTP APIs, driven in tests by the real
 * SDKs. Each answers from a script: one entry per request, text chunks and tool calls, or an
 * HTTP error status. Every request body is kept for assertions.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

export interface ScriptedTurn {
  text?: string[];
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /** Answer this HTTP status instead (e.g. 500 to force a fallback). */
  status?: number;
  /** Wait this long between chunks (to cancel mid-stream). */
  delayMs?: number;
}

export interface FakeLlm {
  url: string;
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

type Writer = (res: ServerResponse, turn: ScriptedTurn, sse: boolean) => Promise<void>;

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

const pause = (ms?: number) => new Promise((r) => setTimeout(r, ms ?? 0));

function start(script: ScriptedTurn[], write: Writer): Promise<FakeLlm> {
  const requests: Record<string, unknown>[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const b = await body(req);
      requests.push({ ...b, _path: req.url });
      const turn = script[Math.min(next++, script.length - 1)];
      if (turn.status) {
        res.writeHead(turn.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: turn.status, message: 'scripted failure', status: 'INTERNAL' } }));
        return;
      }
      const sse = (req.url ?? '').includes('alt=sse') || b.stream === true;
      res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
      await write(res, turn, sse);
      res.end();
    })().catch(() => res.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  })));
}

/** Gemini: POST .../models/{m}:streamGenerateContent?alt=sse answered with `data: {json}` lines. */
export function fakeGemini(script: ScriptedTurn[]): Promise<FakeLlm> {
  return start(script, async (res, turn, sse) => {
    const chunks: Record<string, unknown>[] = (turn.text ?? []).map((t) => ({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }] }));
    if (turn.toolCalls?.length) {
      chunks.push({ candidates: [{ content: { role: 'model', parts: turn.toolCalls.map((c, i) => ({ functionCall: { id: c.id ?? `g-${i}`, name: c.name, args: c.args } })) }, index: 0 }] });
    }
    chunks.push({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 } });
    if (!sse) {
      res.write(JSON.stringify(chunks[0]));
      return;
    }
    for (const c of chunks) {
      res.write(`data: ${JSON.stringify(c)}\r\n\r\n`);
      await pause(turn.delayMs);
    }
  });
}

/** OpenAI chat completions, streamed as chunk objects then [DONE]. */
export function fakeOpenAI(script: ScriptedTurn[]): Promise<FakeLlm> {
  return start(script, async (res, turn) => {
    const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-fake', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
    for (const t of turn.text ?? []) {
      res.write(chunk({ content: t }));
      await pause(turn.delayMs);
    }
    (turn.toolCalls ?? []).forEach((c, i) => {
      const args = JSON.stringify(c.args);
      res.write(chunk({ tool_calls: [{ index: i, id: c.id ?? `call_${i}`, type: 'function', function: { name: c.name, arguments: args.slice(0, 5) } }] }));
      res.write(chunk({ tool_calls: [{ index: i, function: { arguments: args.slice(5) } }] }));
    });
    res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-fake', choices: [], usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 } })}\n\n`);
    res.write('data: [DONE]\n\n');
  });
}

/** Anthropic messages, streamed as typed server-sent events. */
export function fakeAnthropic(script: ScriptedTurn[]): Promise<FakeLlm> {
  return start(script, async (res, turn) => {
    const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', { message: { id: 'm1', type: 'message', role: 'assistant', content: [], model: 'claude-fake', stop_reason: null, stop_sequence: null, usage: { input_tokens: 40, output_tokens: 1 } } });
    let index = 0;
    if (turn.text?.length) {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const t of turn.text) {
        ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
        await pause(turn.delayMs);
      }
      ev('content_block_stop', { index });
      index++;
    }
    for (const c of turn.toolCalls ?? []) {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: c.id ?? `toolu_${index}`, name: c.name, input: {} } });
      ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.args) } });
      ev('content_block_stop', { index });
      index++;
    }
    ev('message_delta', { delta: { stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } });
    ev('message_stop', {});
  });
}
