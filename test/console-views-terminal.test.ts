import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TmuxTerminal } from './support/tmux-terminal.js';

/**
 * The browsable views in a real terminal: the Summary's g/G and `/`, the Metrics tab's moves, sort
 * and Enter, the trace list read page by page and filtered with terms, search and the jump to where
 * the errors start in an open trace, `y` on a span and on a tool result, and the mouse (SGR reports
 * typed into the terminal as a terminal sends them). After every step the screen must equal a forced
 * full redraw, at 60x20, 80x24, 120x40 and 200x60 (CORAL_TERM_SIZES lists others). Assertions
 * read only what a 60x20 pane still shows of a header.
 */
const home = mkdtempSync(join(tmpdir(), 'coral-views-'));
const terminals: TmuxTerminal[] = [];
afterAll(() => {
  for (const t of terminals) t.kill();
  rmSync(home, { recursive: true, force: true });
});

const SIZES = (process.env.CORAL_TERM_SIZES ?? '60x20,80x24,120x40,200x60').split(',').map((s) => s.split('x').map(Number) as [number, number]);

/** The rows drawn in reverse video (the cursor rows), colours and all escapes dropped. */
const inverseRows = (t: TmuxTerminal) => t.tmux('capture-pane', '-t', 't', '-p', '-e').split('\n').filter((l) => /\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m/.test(l)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));

async function session(cols: number, rows: number): Promise<string[]> {
  const t = new TmuxTerminal(`views-${cols}x${rows}`, cols, rows, home);
  terminals.push(t);
  const problems: string[] = [];
  const check = async (step: string) => {
    const r = await t.checkFrame(`${cols}x${rows} ${step}`);
    problems.push(...r.problems);
    return r.screen.join('\n');
  };
  t.start();
  // The summary's call done (a 60x20 pane may not show its first line), the worst traces loaded behind it.
  await t.waitFor((s) => /✓ \[1\] query_summary/.test(s) && /✓ \[2\] query_traces/.test(s), 'the summary', 180_000);
  await t.waitFor((s) => !s.includes('loading ') && !/⋯ \[\d+\]/.test(s), 'the demo to finish loading', 180_000);
  await check('start');

  // Summary: g/G and / to find a service.
  await t.press('Escape', '4');
  // The first look from the newest minutes is replaced by the whole hour's once the load is in.
  await t.waitFor((s) => /Summary/.test(s) && !s.includes('From the newest') && !s.includes('Working out'), 'the whole hour\'s summary', 120_000);
  await t.press('G');
  await check('summary G');
  await t.press('g', '/');
  await t.type('checkout');
  await t.waitFor((s) => s.includes('/checkout'), 'the summary search line');
  expect(inverseRows(t).join('\n')).toContain('checkout');
  await check('summary search');
  await t.press('Enter', 'Escape');
  await check('summary search kept then cleared');

  // Metrics: moves, sort, Enter opens the operation's traces, filtered to it.
  await t.press(':');
  await t.type('metrics checkout');
  await t.keys('Enter');
  await t.waitFor((s) => /checkout, last 1h · by P/.test(s), 'the metrics table');
  await t.press('3', 'j');
  await check('metrics moved');
  await t.press('s');
  expect(await check('metrics sorted')).toMatch(/by erro/);
  await t.press('G', 'g', 'Enter');
  // Calls 1 and 2 are the first look, 3 the metrics: 4 is the service's traces.
  await t.waitFor((s) => /✓ \[4\] query_traces/.test(s), 'the operation\'s traces');
  expect(await check('metrics opened')).toMatch(/traces match "|match "/);

  // The trace list, read page by page: G goes to the last row read and the next page comes in.
  await t.press('Escape');
  const first = Number(/(\d+) of \d+ traces/.exec(t.screen().join('\n'))?.[1] ?? 0);
  await t.press('G');
  await t.waitFor((s) => Number(/(\d+) of \d+ traces/.exec(s)?.[1] ?? 0) > first && !s.includes('loading more'), 'the next page');
  await check('next page');
  await t.press('/');
  await t.type('service:payment status:error');
  await t.press('Enter');
  expect(await check('filtered with terms')).toMatch(/\d+ of \d+ traces match "s/);

  // An open trace: e goes to where the errors start; / searches its spans, n moves on.
  await t.press('g', 'Enter', 'e');
  await t.waitFor(() => inverseRows(t).some((l) => l.includes('payment')), 'the cursor on the failing payment span');
  await check('error start');
  await t.press('/');
  await t.type('checkout');
  await t.press('Enter');
  expect(await check('searched')).toMatch(/"checkout" \d+/);
  await t.press('n');
  await check('next match');
  await t.press('y');
  expect(await check('span id copied')).toMatch(/Copied span id [0-9a-f]{8}/);

  // y on a tool call copies its result.
  await t.press('BTab', 'y');
  expect(await check('result copied')).toMatch(/Copied the result of/);

  // The mouse: the wheel over the view moves it, a click focuses the chat; nothing is typed.
  await t.press('Tab', 'Escape', 'Escape');
  t.tmux('send-keys', '-t', 't', '-l', `\x1b[<65;${cols - 5};8M`);
  await t.settle();
  t.tmux('send-keys', '-t', 't', '-l', '\x1b[<0;3;3M\x1b[<0;3;3m');
  // A key typed now lands in the chat input, and no report was typed there.
  await t.type('x');
  await t.waitFor((s) => s.includes('› x'), 'the chat focused by a click');
  expect(await check('mouse')).not.toMatch(/\[<\d/);
  await t.press('C-u');

  await t.press('C-c');
  await t.keys('C-c');
  await t.waitFor((s) => s.includes('CORAL-EXITED-0'), 'the console to exit');
  // The terminal reports the mouse no more.
  expect(t.tmux('display', '-p', '-t', 't', '#{mouse_sgr_flag}#{mouse_standard_flag}').trim()).toBe('00');
  return problems;
}

describe('the browsable views in a real terminal (tmux)', () => {
  for (const [cols, rows] of SIZES) {
    it.concurrent(`every view's keys draw as a full redraw would at ${cols}x${rows}`, async () => {
      const problems = await session(cols, rows);
      expect(problems.join('\n\n')).toBe('');
    }, 420_000);
  }
});
