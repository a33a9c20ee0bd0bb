/**
 * Local fake servers for the Gemini, OpenAI (and Ollama) and Anthropic HTTP APIs, driven in tests
 * by the real SDKs. Each is strict: it rejects, with the status and error body the real API uses,
 * the requests the real API rejects (see each fake's `validate`), and it emits what the real API
 * emits (thought signatures, index 0 for every Ollama call, mid-stream overload, blocks, 429s).
 * Each answers from a script, one entry per accepted request; every request body is kept, and
 * every rejection too.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

export interface ScriptedTurn {
  text?: string[];
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /** Answer this HTTP status instead (e.g. 500 to force a fallback). */
  status?: number;
  /** With `status`: the error body (JSON) and headers to send. */
  errorBody?: unknown;
  headers?: Record<string, string>;
  /** Wait this long between chunks (to cancel mid-stream). */
  delayMs?: number;
  /** How the response ends: Gemini finishReason, OpenAI finish_reason, Anthropic stop_reason. */
  finish?: string;
  /** Anthropic: answer 200, then an `event: error` of this type (e.g. overloaded_error) before any content. */
  midStreamError?: string;
}

export interface Rejection {
  status: number;
  message: string;
}

export interface FakeLlm {
  url: string;
  requests: Record<string, unknown>[];
  /** Requests the fake refused as the real API would, with why. */
  rejections: Rejection[];
  close(): Promise<void>;
}

export type Writer = (res: ServerResponse, turn: ScriptedTurn, sse: boolean) => Promise<void>;
/** Returns why the real API would refuse this request, or null. */
export type Validator = (body: Record<string, unknown>, path: string) => Rejection | null;
export type ErrorBody = (status: number, message: string) => unknown;

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

export const pause = (ms?: number) => new Promise((r) => setTimeout(r, ms ?? 0));

export function startFake(script: ScriptedTurn[], o: { write: Writer; validate: Validator; errorBody: ErrorBody }): Promise<FakeLlm> {
  const requests: Record<string, unknown>[] = [];
  const rejections: Rejection[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const b = await readBody(req);
      const path = req.url ?? '';
      requests.push({ ...b, _path: path });
      const rejected = o.validate(b, path);
      if (rejected) {
        rejections.push(rejected);
        res.writeHead(rejected.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(o.errorBody(rejected.status, rejected.message)));
        return;
      }
      const turn = script[Math.min(next++, script.length - 1)];
      if (turn.status) {
        res.writeHead(turn.status, { 'content-type': 'application/json', ...turn.headers });
        res.end(JSON.stringify(turn.errorBody ?? o.errorBody(turn.status, 'scripted failure')));
        return;
      }
      const sse = path.includes('alt=sse') || b.stream === true;
      res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
      await o.write(res, turn, sse);
      res.end();
    })().catch(() => res.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    rejections,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  })));
}

export { fakeGemini } from './fake-gemini.js';
export { fakeOpenAI, fakeOllama } from './fake-openai.js';
export { fakeAnthropic } from './fake-anthropic.js';
