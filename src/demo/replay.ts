import { setTimeout as sleep } from 'node:timers/promises';
import { CoralError } from '../core/errors.js';
import { type Nanos, nowNs } from '../core/time.js';
import { streamExportLines } from './export-lines.js';
import { readMeta, scenariosDir } from './files.js';
import { type OtlpSender, otlpSender } from './otlp-senders.js';
import { shiftTimestamps } from './shift.js';

export interface ReplayOptions {
  /** Base URL of an OTLP/HTTP receiver (JSON), e.g. http://127.0.0.1:4318; or give `sender`. */
  url?: string;
  /** How the exports travel: OTLP/HTTP JSON or protobuf, or OTLP/gRPC. */
  sender?: OtlpSender;
  /** How many times faster than real time; ignored with `endAtNs`. */
  speed: number;
  /**
   * Send everything at once, shifted so that the scenario's hour ends here (what `demo load` does
   * into a running colony), instead of pacing each export to arrive fresh.
   */
  endAtNs?: Nanos;
  dir?: string;
  signal?: AbortSignal;
  onProgress?: (p: { sent: number; total: number; scenarioSec: number }) => void;
}

export interface ReplayResult {
  sent: number;
  /** Exports the receiver refused after retries; each with its reason. */
  failed: { offsetMs: number; signal: string; reason: string }[];
}

const LOAD_CONCURRENCY = 4;

/**
 * Streams a scenario into a running colony over real OTLP, `speed` times faster than real time.
 * Each export is shifted so its data is fresh when it arrives: the incident unfolds live.
 */
export async function replayScenario(name: string, opts: ReplayOptions): Promise<ReplayResult> {
  if (!(opts.speed > 0)) throw new CoralError(`Invalid speed ${opts.speed}.`, 'Use a positive number: 1 is real time, 60 plays the hour in a minute.');
  const sender = opts.sender ?? otlpSender('http/json', opts.url ?? 'http://127.0.0.1:4318');
  const dir = opts.dir ?? scenariosDir();
  const meta = readMeta(name, dir);
  const baseNs = BigInt(Date.parse(meta.baseTime)) * 1_000_000n;
  const fixedShift = opts.endAtNs === undefined ? null : opts.endAtNs - (baseNs + BigInt(meta.durationSec) * 1_000_000_000n);
  const startedMs = Date.now();
  const result: ReplayResult = { sent: 0, failed: [] };
  const total = meta.counts.exports;
  // Paced exports go one by one, in order; an unpaced load keeps a few in flight.
  const concurrency = fixedShift === null ? 1 : LOAD_CONCURRENCY;
  const inflight = new Set<Promise<void>>();
  try {
    for await (const line of streamExportLines(name, dir)) {
      if (fixedShift === null) {
        const wait = startedMs + line.offsetMs / opts.speed - Date.now();
        if (wait > 0) await sleep(wait, undefined, { signal: opts.signal });
      }
      // Paced, the export's slice ends "now": its spans keep their real durations and spacing.
      shiftTimestamps(line.body, fixedShift ?? nowNs() - (baseNs + BigInt(line.offsetMs) * 1_000_000n));
      const task = sender.send(line.signal, line.body as Record<string, unknown>, opts.signal).then((failure) => {
        if (failure) result.failed.push({ offsetMs: line.offsetMs, signal: line.signal, reason: failure });
        else result.sent++;
        opts.onProgress?.({ sent: result.sent + result.failed.length, total, scenarioSec: line.offsetMs / 1000 });
      });
      inflight.add(task);
      void task.finally(() => inflight.delete(task)).catch(() => undefined);
      if (inflight.size >= concurrency) await Promise.race(inflight);
    }
    await Promise.all(inflight);
  } finally {
    if (!opts.sender) sender.close();
  }
  return result;
}
