import { createReadStream, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGunzip, gunzip, gzipSync } from 'node:zlib';
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
  /**
   * The compressed size of each gzip member of the telemetry file, oldest first (written by
   * writeScenarioFiles): the newest exports can be inflated without the rest. Absent: one member.
   */
  members?: number[];
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

/** Every export line opens with {"offsetMs":N: read it without parsing the whole export. */
const offsetOf = (line: string) => Number(/^\{"offsetMs":(\d+)/.exec(line)?.[1] ?? 0);

const gunzipAsync = promisify(gunzip);

/**
 * The scenario's exports newest first (by offsetMs; send order among equals reversed), for a
 * console that answers its first question from the last minutes while the rest of the hour loads.
 * The file's gzip members are inflated from the last one back, one at a time, so the newest exports
 * arrive without the rest of the file being read, and no more than a member's text is held at once.
 */
export async function* exportLinesNewestFirst(name: string, dir = scenariosDir()): AsyncGenerator<ExportLine> {
  const meta = JSON.parse(readFileSync(metaFile(dir, name), 'utf8')) as ScenarioMeta;
  const file = await open(telemetryFile(dir, name));
  try {
    const members = meta.members ?? [(await file.stat()).size];
    let end = members.reduce((a, b) => a + b, 0);
    for (let m = members.length - 1; m >= 0; m--) {
      const compressed = Buffer.alloc(members[m]);
      end -= members[m];
      await file.read(compressed, 0, compressed.length, end);
      // Inflated on the thread pool: the console keeps drawing meanwhile.
      const lines = (await gunzipAsync(compressed)).toString('utf8').split('\n').filter((l) => l.length > 0);
      const order = lines.map((line, i) => ({ offsetMs: offsetOf(line), i })).sort((a, b) => b.offsetMs - a.offsetMs || b.i - a.i);
      for (const { i } of order) {
        const line = lines[i];
        lines[i] = '';
        yield JSON.parse(line) as ExportLine;
      }
    }
  } finally {
    await file.close();
  }
}

/** Exports per gzip member: a few, so the newest minutes inflate alone (deflate's window is 32 KB, so the split costs almost no size). */
const EXPORTS_PER_MEMBER = 4;

/**
 * The telemetry text gzipped as consecutive members of `perMember` lines each (still one gzip file:
 * gunzip reads the members in turn), and each member's compressed size. Members are only ever read
 * newest last, so the lines must be in offsetMs order, as the generator sends them (pure).
 */
export function gzipMembers(text: string, perMember = EXPORTS_PER_MEMBER): { gz: Buffer; members: number[] } {
  const lines = text.split('\n').filter((l) => l.length > 0);
  lines.forEach((l, i) => {
    if (i > 0 && offsetOf(l) < offsetOf(lines[i - 1])) throw new Error(`export ${i + 1} (offsetMs ${offsetOf(l)}) comes after a later one: scenario lines must be in offsetMs order`);
  });
  const parts: Buffer[] = [];
  for (let i = 0; i < lines.length; i += perMember) parts.push(gzipSync(`${lines.slice(i, i + perMember).join('\n')}\n`, { level: 9 }));
  return { gz: Buffer.concat(parts), members: parts.map((p) => p.length) };
}

/** Writes a scenario's telemetry and metadata; each file lands whole (written aside, then renamed). */
export function writeScenarioFiles(dir: string, meta: ScenarioMeta, telemetryText: string): void {
  mkdirSync(dir, { recursive: true });
  const { gz, members } = gzipMembers(telemetryText);
  const files: [string, Buffer | string][] = [
    [telemetryFile(dir, meta.name), gz],
    [metaFile(dir, meta.name), `${JSON.stringify({ ...meta, members }, null, 2)}\n`],
  ];
  for (const [path, content] of files) {
    writeFileSync(`${path}.tmp`, content);
    renameSync(`${path}.tmp`, path);
  }
}
