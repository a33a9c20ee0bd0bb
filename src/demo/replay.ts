import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { CoralError } from '../core/errors.js';
import { nowNs } from '../core/time.js';
import { readMeta, scenariosDir, streamExportLines } from './files.js';
import { shiftTimestamps } from './shift.js';

export interface ReplayOptions {
  /** Base URL of an OTLP/HTTP receiver, e.g. http://127.0.0.1:4318. */
  url: string;
  /** How many times faster than real time. */
  speed: number;
  dir?: string;
  signal?: AbortSignal;
  onProgress?: (p: { sent: number; total: number; scenarioSec: number }) => void;
}

export interface ReplayResult {
  sent: number;
  /** Exports the receiver refused after retries; each with its reason. */
  failed: { offsetMs: number; signal: string; reason: string }[];
}

const MAX_ATTEMPTS = 5;

async function post(url: string, body: Buffer, signal?: AbortSignal): Promise<string | null> {
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, signal });
    } catch (err) {
      if (signal?.aborted) throw err;
      // Nothing listens there: every later export would fail the same way, so stop at once.
      if (attempt >= MAX_ATTEMPTS) {
        throw new CoralError(`Cannot reach the OTLP receiver at ${url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}.`, 'Start one with `coral colony serve` (port 4318), or pass --otlp URL.');
      }
      await sleep(100 * attempt);
      continue;
    }
    const text = await res.text();
    if (res.ok) {
      const partial = text.length > 2 ? (JSON.parse(text) as { partialSuccess?: { errorMessage?: string } }).partialSuccess : undefined;
      return partial?.errorMessage ? `partially rejected: ${partial.errorMessage}` : null;
    }
    if ((res.status === 429 || res.status === 503) && attempt < MAX_ATTEMPTS) {
      const after = Number(res.headers.get('retry-after'));
      await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : 250 * attempt);
      continue;
    }
    return `HTTP ${res.status}: ${text.slice(0, 200)}`;
  }
}

/**
 * Streams a scenario into a running colony over real OTLP/HTTP, `speed` times faster than real
 * time. Each export is shifted so its data is fresh when it arrives: the incident unfolds live.
 */
export async function replayScenario(name: string, opts: ReplayOptions): Promise<ReplayResult> {
  if (!(opts.speed > 0)) throw new CoralError(`Invalid speed ${opts.speed}.`, 'Use a positive number: 1 is real time, 60 plays the hour in a minute.');
  const dir = opts.dir ?? scenariosDir();
  const meta = readMeta(name, dir);
  const baseNs = BigInt(Date.parse(meta.baseTime)) * 1_000_000n;
  const startedMs = Date.now();
  const base = opts.url.replace(/\/+$/, '');
  const result: ReplayResult = { sent: 0, failed: [] };
  const total = meta.counts.exports;
  for await (const line of streamExportLines(name, dir)) {
    const dueMs = startedMs + line.offsetMs / opts.speed;
    const wait = dueMs - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: opts.signal });
    // The export's slice ends "now": its spans keep their real durations and spacing.
    shiftTimestamps(line.body, nowNs() - (baseNs + BigInt(line.offsetMs) * 1_000_000n));
    const failure = await post(`${base}/v1/${line.signal}`, gzipSync(JSON.stringify(line.body)), opts.signal);
    if (failure) result.failed.push({ offsetMs: line.offsetMs, signal: line.signal, reason: failure });
    else result.sent++;
    opts.onProgress?.({ sent: result.sent + result.failed.length, total, scenarioSec: line.offsetMs / 1000 });
  }
  return result;
}
