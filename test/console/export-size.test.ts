import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleEngine } from '../../src/console/engine.js';
import { tempCoralHome } from '../support/coral-home.js';

const { home, use } = tempCoralHome('export');

describe('an incident note exported after the recorded investigation', () => {
  it('of the largest scenario is at most 15 KB of Markdown for one question, with the whole results beside it', async () => {
    use();
    const engine = new ConsoleEngine({ demo: 'kafka-queue-problems' });
    engine.prepare();
    await engine.start();
    await engine.ask('');
    const [md, results, jsonl] = engine.exportSession(join(home, 'exports'));
    await engine.close();
    const note = readFileSync(md, 'utf8');
    expect(Buffer.byteLength(note)).toBeLessThanOrEqual(15 * 1024);
    expect(note).toMatch(/^# Incident note: Is the order pipeline healthy\?\n/);
    expect(note).toContain('- Colony: embedded (demo: kafka-queue-problems)');
    expect(note.match(/^## \d+\. /gm)).toHaveLength(1);
    // The recording's four calls, cited, in order, after the question (the first look's are left out).
    const cited = [...note.matchAll(/^\*\*\[(\d+)\] (\w+)\*\*/gm)].map((m) => Number(m[1]));
    expect(cited).toHaveLength(4);
    expect(cited).toEqual([...cited].sort((a, b) => a - b));
    expect(note.indexOf('### Answer')).toBeLessThan(note.indexOf('### Evidence'));
    expect(note).toContain('Recommendation: turn kafkaQueueProblems off');
    const full = readFileSync(results, 'utf8');
    expect(full.length).toBeGreaterThan(note.length);
    for (const n of cited) expect(full).toContain(`## [${n}] `);
    const lines = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['session', 'question', 'call', 'call', 'call', 'call', 'answer']);
    if (process.env.CORAL_SHOW_EXPORT) console.log(note);
    console.log(`incident note: ${Buffer.byteLength(note)} bytes; results ${Buffer.byteLength(full)} bytes; JSON lines ${lines.length}`);
  }, 180_000);
});
