import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CoralError } from '../core/errors.js';
import { packageRoot } from '../core/package-root.js';
import { metaFile, offsetOf, telemetryFile } from './export-lines.js';
import { SCENARIOS } from './scenarios.js';
import type { ScenarioMeta } from './scenario-meta.js';

export function scenariosDir(): string {
  return join(packageRoot(), 'demo-data', 'scenarios');
}


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
