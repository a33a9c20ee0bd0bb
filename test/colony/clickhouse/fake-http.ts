import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChClient } from '../../../src/colony/store/clickhouse/client.js';

/**
 * A server speaking the part of ClickHouse's HTTP interface @clickhouse/client uses (POST a
 * statement, JSONEachRow in and out, Basic auth), executed by the real engine behind `ch` (chdb).
 * `readonly`: the user may only read, and a statement that would change anything gets the server's
 * READONLY error (the engine behind is shared, so the refusal is made here).
 */
export async function startFakeClickHouse(ch: ChClient, auth: { user: string; password: string; readonly?: boolean }): Promise<{ url: string; statements: string[]; close(): Promise<void> }> {
  const statements: string[] = [];
  const server: Server = createServer((req, res) => {
    void handle(req).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Format': 'JSONEachRow' });
        res.end(body);
      },
      (err: Error & { status?: number }) => {
        res.writeHead(err.status ?? 500, { 'Content-Type': 'text/plain' });
        res.end(`Code: 0. DB::Exception: ${err.message}`);
      },
    );
  });

  const readonly = () => Object.assign(new Error(`${auth.user}: Cannot execute query in readonly mode. (READONLY)`), { status: 500 });

  async function handle(req: IncomingMessage): Promise<string> {
    const expected = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
    if (req.headers.authorization !== expected) throw Object.assign(new Error('Authentication failed'), { status: 401 });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const inUrl = params.get('query');
    if (inUrl !== null) {
      const m = /^INSERT INTO (.+?) FORMAT JSONEachRow$/is.exec(inUrl.trim());
      if (!m) throw new Error(`unsupported statement in the URL: ${inUrl}`);
      if (auth.readonly) throw readonly();
      statements.push(inUrl);
      // The client's de-duplication token reaches the engine; an insert without one is never dropped, so a test sees which the client sent.
      const token = params.get('insert_deduplication_token');
      const settings = token === null ? 'insert_deduplicate = 0' : `insert_deduplication_token = '${token.replace(/[^0-9a-zA-Z_-]/g, '')}'`;
      await ch.command(`INSERT INTO ${m[1]} SETTINGS ${settings} FORMAT JSONEachRow\n${body}`);
      return '';
    }
    const sql = body.replace(/\s*FORMAT\s+JSONEachRow\s*$/i, '');
    const reading = /^\s*(SELECT|WITH)\b/i.test(sql);
    if (auth.readonly && !reading) throw readonly();
    statements.push(sql);
    if (reading) return (await ch.query<object>(sql)).map((r) => `${JSON.stringify(r)}\n`).join('');
    await ch.command(sql);
    return '';
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    statements,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
