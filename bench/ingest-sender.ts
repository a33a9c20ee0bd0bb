/**
 * The sending side of the ingest benchmark, in its own process so that its HTTP work does not share
 * the receiver's event loop. Reads payload files, posts them with `concurrency` parallel streams,
 * prints {elapsedMs, failures} as JSON.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [url, contentType, concurrencyText, ...files] = process.argv.slice(2);
const payloads = files.map((f) => readFileSync(f));
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrencyText) });

function post(body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': contentType, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
let failures = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(concurrencyText) }, async () => {
    while (next < payloads.length) {
      const body = payloads[next++];
      if ((await post(body)) !== 200) failures++;
    }
  }),
);
process.stdout.write(JSON.stringify({ elapsedMs: performance.now() - started, failures }));
agent.destroy();
