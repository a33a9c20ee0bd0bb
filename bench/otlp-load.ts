/** Unique OTLP/JSON trace exports and a timed POST, for the benches that send while measuring something else. */
import { Agent, request } from 'node:http';
import { hexId, sdkResource, tracesBody } from '../test/support/otlp-json.js';
import { END, SEC } from './synthetic.js';

/** Export `n` of `spans` server spans, ids unique across n, starting in the `spreadS` seconds (an hour by default) before `end` (the synthetic colony's end by default). */
export function exportBody(n: number, spans = 512, end = END, spreadS = 3600): Buffer {
  const list = Array.from({ length: spans }, (_, i) => {
    const k = n * spans + i;
    return {
      traceId: hexId(16, k, 91), spanId: hexId(8, k, 91), name: `GET /api/r${k % 10}`,
      startNs: end - BigInt(spreadS) * SEC + BigInt(k % spreadS) * SEC, durationMs: 1 + (k % 50),
      attributes: { 'http.request.method': 'GET', 'http.route': `/api/r${k % 10}`, 'http.response.status_code': k % 17 === 0 ? 500 : 200 },
      status: (k % 17 === 0 ? 2 : 0) as 0 | 2,
    };
  });
  return Buffer.from(JSON.stringify(tracesBody(sdkResource(`load-${n % 8}`), '@opentelemetry/instrumentation-http', list)));
}

export const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** POSTs one export; resolves with its status (0: a connection error) and wall-clock milliseconds. */
export function postExport(url: string, body: Buffer, timeoutMs = 10_000): Promise<{ status: number; ms: number }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}/v1/traces`, { method: 'POST', agent, timeout: timeoutMs, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t }));
    req.end(body);
  });
}
