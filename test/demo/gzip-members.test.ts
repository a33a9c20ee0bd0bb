import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { exportLinesNewestFirst, metaFile, telemetryFile } from '../../src/demo/export-lines.js';
import { gzipMembers, listScenarios, readMeta, writeScenarioFiles } from '../../src/demo/files.js';
import type { ScenarioMeta } from '../../src/demo/scenario-meta.js';

/** A scenario file's layout: gzip members a reader can inflate from the newest one back. */
const line = (offsetMs: number, tag: string) => JSON.stringify({ offsetMs, signal: 'logs', body: { tag } });
const text = [line(0, 'a'), line(1000, 'b'), line(1000, 'c'), line(2000, 'd'), line(5000, 'e')].join('\n') + '\n';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scenarioDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'coral-members-'));
  dirs.push(d);
  return d;
}
const meta = { ...readMeta('healthy'), name: 'tiny' } as ScenarioMeta & { bytes?: number };
delete meta.bytes;
delete meta.members;

async function newestFirst(dir: string): Promise<string[]> {
  const tags: string[] = [];
  for await (const l of exportLinesNewestFirst('tiny', dir)) tags.push((l.body as unknown as { tag: string }).tag);
  return tags;
}

describe('scenario telemetry as gzip members', () => {
  it('is still one gzip file holding the text, each member whole lines that inflate alone', () => {
    const { gz, members } = gzipMembers(text, 2);
    expect(members).toHaveLength(3);
    expect(members.reduce((a, b) => a + b, 0)).toBe(gz.length);
    expect(gunzipSync(gz).toString('utf8')).toBe(text);
    let at = 0;
    const alone = members.map((n) => {
      const part = gunzipSync(gz.subarray(at, at + n)).toString('utf8');
      at += n;
      return part;
    });
    expect(alone).toEqual([`${line(0, 'a')}\n${line(1000, 'b')}\n`, `${line(1000, 'c')}\n${line(2000, 'd')}\n`, `${line(5000, 'e')}\n`]);
  });

  it('refuses lines out of offsetMs order, which the newest-first reader could not put back', () => {
    expect(() => gzipMembers([line(2000, 'x'), line(1000, 'y')].join('\n'))).toThrow(/export 2 \(offsetMs 1000\) comes after a later one/);
  });

  it('reads the exports newest first, send order reversed among equal offsets, from the files it writes', async () => {
    const dir = scenarioDir();
    writeScenarioFiles(dir, meta, text);
    const written = JSON.parse(readFileSync(metaFile(dir, 'tiny'), 'utf8')) as ScenarioMeta;
    expect(written.members?.reduce((a, b) => a + b, 0)).toBe(readFileSync(telemetryFile(dir, 'tiny')).length);
    expect(await newestFirst(dir)).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('reads a file written before members (one gzip member, no list) the same way', async () => {
    const dir = scenarioDir();
    writeFileSync(telemetryFile(dir, 'tiny'), gzipSync(text));
    writeFileSync(metaFile(dir, 'tiny'), JSON.stringify(meta));
    expect(await newestFirst(dir)).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('ships every bundled scenario in members', () => {
    for (const s of listScenarios()) {
      expect(s.members?.length, s.name).toBeGreaterThan(10);
      expect(s.members?.reduce((a, b) => a + b, 0), s.name).toBe(s.bytes);
    }
  });
});
