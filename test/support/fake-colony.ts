import { type Server, createServer } from 'node:http';
import { RUNTIME_ROUTE, runtimeRoute } from '../../src/colony/runtime-probe.js';

/**
 * A listener on 127.0.0.1 that records the Authorization header of every request it receives, and
 * answers the runtime challenge as a colony holding `token` with `nonce` would (or not at all).
 */
export async function startListener(o: { nonce?: string; token?: string } = {}): Promise<{ url: string; authorizations: (string | undefined)[]; close: () => Promise<void> }> {
  const authorizations: (string | undefined)[] = [];
  let url = '';
  const answer = o.nonce ? runtimeRoute({ nonce: o.nonce, url: () => url, token: o.token }) : null;
  const server: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (answer && (req.url ?? '').split('?')[0] === RUNTIME_ROUTE) void answer(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, authorizations, close: () => new Promise((r) => server.close(() => r())) };
}
