import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, get } from 'node:http';
import { type ColonyRuntime, readOwnRuntime, runtimePath } from './runtime.js';

/**
 * Proof that the process answering at a runtime record's URL is the colony that wrote the record,
 * asked before anything secret is sent to it. A live pid proves nothing (pid 1 is always alive, and
 * pids are reused), and a record's nonce alone is known to whoever wrote the file. So the client
 * sends a fresh challenge and the colony answers, unauthenticated:
 *   nonce: the one in its record (a record whose process does not answer it is stale);
 *   proof: HMAC-SHA256(token, challenge + "\n" + its own URL), when it has a token. Only a process
 *     holding the token can answer; binding its own URL defeats a listener that relays the
 *     challenge to the real colony. Nothing here reveals the token.
 */
export const RUNTIME_ROUTE = '/coral/runtime';
const CHALLENGE = /^[0-9a-f]{32,128}$/;

export function runtimeProof(token: string, challenge: string, url: string): string {
  return createHmac('sha256', token).update(`${challenge}\n${url}`).digest('hex');
}

export interface RuntimeIdentity {
  nonce: string;
  /** The URL written in the record (known once listening). */
  url: () => string;
  token: string | undefined;
}

/** The colony's side: answers a challenge with its nonce and, with a token, the proof. */
export function runtimeRoute(id: RuntimeIdentity): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const challenge = new URL(req.url ?? '/', 'http://x').searchParams.get('challenge') ?? '';
    if (req.method !== 'GET' || !CHALLENGE.test(challenge)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('GET with ?challenge=<32-128 hex digits>\n');
      return;
    }
    const body = JSON.stringify({ nonce: id.nonce, proof: id.token ? runtimeProof(id.token, challenge, id.url()) : null });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
  };
}

const PROBE_TIMEOUT_MS = 3000;
const MAX_ANSWER = 4096;

/** GETs the route without credentials; the body, or why there is none. */
function ask(url: URL): Promise<{ body: string } | { problem: string }> {
  return new Promise((done) => {
    const req = get(url, { timeout: PROBE_TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (body.length > MAX_ANSWER) req.destroy(new Error('answer too long'));
      });
      res.on('end', () => done(res.statusCode === 200 ? { body } : { problem: `it answered HTTP ${res.statusCode}` }));
      res.on('error', (err) => done({ problem: err.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => done({ problem: err.code === 'ECONNREFUSED' ? 'nothing listens there' : err.message }));
  });
}

function sameHex(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Null when the process at rt.url proves it is the colony of this record (and holds this token). */
export async function probeRuntime(rt: ColonyRuntime, token: string | undefined): Promise<string | null> {
  const challenge = randomBytes(16).toString('hex');
  const url = new URL(`${RUNTIME_ROUTE}?challenge=${challenge}`, rt.url);
  const answer = await ask(url);
  if ('problem' in answer) return `its colony at ${rt.url} does not answer (${answer.problem})`;
  let parsed: { nonce?: unknown; proof?: unknown };
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    return `what answers at ${rt.url} is not that colony`;
  }
  if (!sameHex(parsed.nonce, rt.nonce)) return `what answers at ${rt.url} is not the colony that wrote it`;
  if (token !== undefined && !sameHex(parsed.proof, runtimeProof(token, challenge, rt.url))) return `what answers at ${rt.url} does not hold the colony's token`;
  return null;
}

/**
 * The colony serving this database, proven: the record is ours (runtime.ts) and its process
 * answers the challenge. Anything else is said in one line and the caller opens the file itself.
 */
export async function findRunningColony(
  db: string,
  o: { instead?: string; warn?: (line: string) => void } = {},
): Promise<{ rt: ColonyRuntime; token: string | undefined } | null> {
  const own = readOwnRuntime(db);
  if (own === null) return null;
  const problem = 'ignored' in own ? own.ignored : await probeRuntime(own.rt, own.token);
  if (problem === null && !('ignored' in own)) return own;
  (o.warn ?? ((l) => process.stderr.write(`${l}\n`)))(`coral: ignoring ${runtimePath(db)}: ${problem}; ${o.instead ?? `opening ${db} directly`}`);
  return null;
}
