import { mkdirSync, readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TmuxTerminal } from './support/tmux-terminal.js';

/**
 * Startup in a real terminal (tmux, at 60x20, 80x24, 120x40 and 200x60): nothing typed while the demo loads is lost. A question
 * sent while the status bar says "loading" is answered; one sent while that answer runs is shown as
 * queued and answered after it; a pasted `:export` runs as a command. Each step waits for what the
 * screen shows, and the idle screens must equal a full redraw (while a tool call runs, its timer
 * redraws the screen four times a second: nothing settles to compare).
 */
const home = mkdtempSync(join(tmpdir(), 'coral-startup-'));
const terminals: TmuxTerminal[] = [];
afterAll(() => {
  for (const t of terminals) t.kill();
  rmSync(home, { recursive: true, force: true });
});

const idle = (s: string) => !s.includes('loading ') && !/⋯ \[\d+\]/.test(s) && /› ask about/.test(s);
/** The chat's input row: its prompt, just above the chat pane's bottom border. */
const inputRow = (s: string) => {
  const lines = s.split('\n');
  return lines.find((l, i) => /^│[›…] /.test(l) && lines[i + 1]?.startsWith('╰')) ?? '';
};
/** Sent: out of the input row, and in the chat as asked (›) or queued. */
const sent = (q: string) => (s: string) => !inputRow(s).includes(q) && (s.includes(`› ${q}`) || s.includes(`queued: ${q}`));
const asked = (q: string) => (s: string) => !inputRow(s).includes(q) && s.includes(`› ${q}`);

const SIZES = (process.env.CORAL_TERM_SIZES ?? '60x20,80x24,120x40,200x60').split(',').map((s) => s.split('x').map(Number) as [number, number]);

describe('the console at startup (tmux)', () => {
  for (const [cols, rows] of SIZES) it.concurrent(`answers a question typed and sent while the demo loads, queues the next, and runs a pasted :export at ${cols}x${rows}`, async () => {
    // Each size its own CORAL_HOME: the export below is read back from it.
    const own = join(home, `${cols}x${rows}`);
    mkdirSync(own);
    const t = new TmuxTerminal(`startup-${cols}x${rows}`, cols, rows, own);
    terminals.push(t);
    const problems: string[] = [];
    t.start();
    // The first frame says the demo is loading; the question goes in while it does.
    await t.waitFor((s) => /loading \d+%/.test(s), 'the first frame, loading', 60_000);
    await t.type('is payment failing?');
    await t.keys('Enter');
    // Asked (the colony may still be opening: it is queued first), never thrown away.
    await t.waitFor(sent('is payment failing?'), 'the question, asked or queued', 60_000);
    await t.waitFor(asked('is payment failing?'), 'the question asked', 120_000);
    // A second question while the first is answered: queued, shown dimmed, then asked after it.
    await t.type('and checkout?');
    await t.keys('Enter');
    const second = await t.waitFor(sent('and checkout?'), 'the second question, queued or asked', 60_000);
    expect(second).not.toMatch(/› and checkout\?[\s\S]*› is payment failing\?/);
    // The chat follows its newest lines: the question shows as it is asked, then its answer scrolls it away.
    await t.waitFor(asked('and checkout?'), 'the second question asked', 240_000);
    await t.waitFor(idle, 'both answered', 240_000);
    const answered = await t.checkFrame('both answered');
    problems.push(...answered.problems);
    expect(answered.screen.join('\n')).toContain('sources: [');
    expect(answered.screen.join('\n')).not.toContain('queued:');

    // A pasted `:` line is a command, not a question.
    await t.type(':export\r');
    const exported = await t.waitFor((s) => s.includes('Exported to'), 'the export', 60_000);
    expect(exported).not.toContain('› :export');
    const r = await t.checkFrame('exported');
    problems.push(...r.problems);
    const dir = join(own, 'exports');
    const md = readdirSync(dir).find((f) => f.endsWith('.md'));
    const note = readFileSync(join(dir, md as string), 'utf8');
    // Both questions were asked, in the order sent, and each answered before the next was asked.
    const q1 = note.indexOf('is payment failing?');
    const q2 = note.indexOf('and checkout?');
    expect(q1).toBeGreaterThanOrEqual(0);
    expect(q2).toBeGreaterThan(q1);
    expect(note.slice(q1, q2)).toMatch(/answer/i);
    expect(note.slice(q2)).toMatch(/answer/i);
    expect(problems.join('\n\n')).toBe('');
  }, 420_000);
});
