import { createReadStream, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { createGunzip, gzipSync } from 'node:zlib';
import { CoralError } from '../core/errors.js';
import { packageRoot } from '../core/package-root.js';
import type { ExportLine } from './generate.js';
import { type GroundTruth, SCENARIOS } from './scenarios.js';

/** The metadata written beside each scenario's telemetry. */
export interface ScenarioMeta {
  name: string;
  story: string;
  seed: number;
  generatorVersion: number;
  /** When the file's hour starts, before any shift. */
  baseTime: string;
  durationSec: number;
  counts: { spans: number; metricPoints: number; logs: number; events: number; exports: number };
  /** SHA-256 of the uncompressed telemetry: what regenerating must reproduce. */
  sha256: string;
  truth: GroundTruth;
}

export function scenariosDir(): string {
  return join(packageRoot(), 'demo-data', 'scenarios');
}

export const telemetryFile = (dir: string, name: string) => join(dir, `${name}.otlp.jsonl.gz`);
export const metaFile = (dir: string, name: string) => join(dir, `${name}.json`);

export interface ScenarioListing extends ScenarioMeta {
  bytes: number;
}

/** The scenarios present on disk, in the order they are defined. */
export function listScenarios(dir = scenariosDir()): ScenarioListing[] {
  const present = new Set(readdirSync(dir));
  return SCENARIOS.filter((s) => present.has(`${s.name}.json`)).map((s) => ({
    ...(JSON.parse(readFileSync(metaFile(dir, s.name), 'utf8')) as ScenarioMeta),
    bytes: statSync(telemetryFile(dir, s.name)).size,
  }));
}

export function readMeta(name: string, dir = scenariosDir()): ScenarioMeta {
  const found = listScenarios(dir).find((s) => s.name === name);
  if (!found) {
    throw new CoralError(`Unknown demo scenario "${name}".`, `Available: ${listScenarios(dir).map((s) => s.name).join(', ')} (see coral demo list).`);
  }
  return found;
}

/**
 * The scenario's exports in send order, one at a time, decompressed and parsed as they stream: loading never holds the whole
 * file (40 MB of JSON, several hundred MB as objects) in memory at once.
 */
export async function* streamExportLines(name: string, dir = scenariosDir()): AsyncGenerator<ExportLine> {
  const lines = createInterface({ input: createReadStream(telemetryFile(dir, name)).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.length > 0) yield JSON.parse(line) as ExportLine;
}

/**
 * The scenario's exports newest first (by offsetMs; send order among equals reversed), for a
 * console that answers its first question from the last minutes while the rest of the hour loads.
 * Every line is read first (about 40 MB of text) and each is parsed when reached and let go, so
 * the text shrinks as the load goes on rather than staying whole until its end.
 */
export async function* exportLinesNewestFirst(name: string, dir = scenariosDir()): AsyncGenerator<ExportLine> {
  const lines: (string | null)[] = [];
  const offsets: number[] = [];
  const input = createInterface({ input: createReadStream(telemetryFile(dir, name)).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of input) {
    if (line.length === 0) continue;
    // Every line opens with {"offsetMs":N: read it without parsing the whole export.
    offsets.push(Number(/^\{"offsetMs":(\d+)/.exec(line)?.[1] ?? 0));
    lines.push(line);
  }
  const order = offsets.map((offsetMs, i) => ({ offsetMs, i })).sort((a, b) => b.offsetMs - a.offsetMs || b.i - a.i);
  for (const { i } of order) {
    const line = lines[i] as string;
    lines[i] = null;
    yield JSON.parse(line) as ExportLine;
  }
}

/** Writes a scenario's telemetry and metadata; each file lands whole (written aside, then renamed). */
export function writeScenarioFiles(dir: string, meta: ScenarioMeta, telemetryText: string): void {
  mkdirSync(dir, { recursive: true });
  const gz = gzipSync(telemetryText, { level: 9 });
  const files: [string, Buffer | string][] = [
    [telemetryFile(dir, meta.name), gz],
    [metaFile(dir, meta.name), `${JSON.stringify(meta, null, 2)}\n`],
  ];
  for (const [path, content] of files) {
    writeFileSync(`${path}.tmp`, content);
    renameSync(`${path}.tmp`, path);
  }
}
