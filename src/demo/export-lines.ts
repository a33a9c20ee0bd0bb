/**
 * A scenario file's exports, read as they stream (files.ts has the rest of a scenario's files). No
 * import of the package's location here: a demo load worker runs this from bundled source.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';
import type { ScenarioMeta } from './scenario-meta.js';
import type { ExportLine } from './generate.js';

export const telemetryFile = (dir: string, name: string) => join(dir, `${name}.otlp.jsonl.gz`);
export const metaFile = (dir: string, name: string) => join(dir, `${name}.json`);

/**
 * The scenario's exports in send order, one at a time, decompressed and parsed as they stream: loading never holds the whole
 * file (40 MB of JSON, several hundred MB as objects) in memory at once.
 */
export async function* streamExportLines(name: string, dir: string): AsyncGenerator<ExportLine> {
  const lines = createInterface({ input: createReadStream(telemetryFile(dir, name)).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.length > 0) yield JSON.parse(line) as ExportLine;
}

/** A scenario's exports in send order, or newest first (exportLinesNewestFirst). */
export function exportLines(name: string, dir: string, newestFirst: boolean): AsyncGenerator<ExportLine> {
  return newestFirst ? exportLinesNewestFirst(name, dir) : streamExportLines(name, dir);
}

/** Every export line opens with {"offsetMs":N: read it without parsing the whole export. */
export const offsetOf = (line: string) => Number(/^\{"offsetMs":(\d+)/.exec(line)?.[1] ?? 0);

const gunzipAsync = promisify(gunzip);

/**
 * The scenario's exports newest first (by offsetMs; send order among equals reversed), for a
 * console that answers its first question from the last minutes while the rest of the hour loads.
 * The file's gzip members are inflated from the last one back, one at a time, so the newest exports
 * arrive without the rest of the file being read, and no more than a member's text is held at once.
 */
export async function* exportLinesNewestFirst(name: string, dir: string): AsyncGenerator<ExportLine> {
  const meta = JSON.parse(readFileSync(metaFile(dir, name), 'utf8')) as Pick<ScenarioMeta, 'members'>;
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
