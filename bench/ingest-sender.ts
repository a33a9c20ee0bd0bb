/**
 * The sending side of the ingest benchmark, in its own process so that its HTTP work does not share
 * the receiver's event loop. Reads payload files, each named with its content type
 * (`FILE=CONTENT_TYPE`, so one run can mix protobuf and JSON), posts them with `concurrency`
 * parallel streams, prints {elapsedMs, failures, cpuMs} as JSON.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [url, concurrencyText, ...items] = process.argv.slice(2);
const payloads = items.map((item) => {
  const at = item.lastIndexOf('=');
  return { body: readFileSync(item.slice(0, at)), contentType: item.slice(at + 1) };
});
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrencyText) });

function post(body: Buffer, contentType: string): Promise<number> {
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
const cpu = process.cpuUsage();
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(concurrencyText) }, async () => {
    while (next < payloads.length) {
      const { body, contentType } = payloads[next++];
      if ((await post(body, contentType)) !== 200) failures++;
    }
  }),
);
const elapsedMs = performance.now() - started;
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ elapsedMs, failures, cpuMs: (used.user + used.system) / 1000 }));
agent.destroy();
