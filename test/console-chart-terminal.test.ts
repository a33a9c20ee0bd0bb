import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TmuxTerminal } from './support/tmux-terminal.js';

/**
 * `:chart payment errors p95` in a real terminal (the built binary in tmux): braille charts with
 * their axes, units and the onset at 160x48 and 80x24, labelled sparklines at 60x20, with colour and
 * with NO_COLOR; after each resize the screen must equal a forced full redraw (Ctrl-L).
 */
const home = mkdtempSync(join(tmpdir(), 'coral-chart-'));
const terminals: TmuxTerminal[] = [];
afterAll(() => {
  for (const t of terminals) t.kill();
  rmSync(home, { recursive: true, force: true });
});

const BRAILLE = /[\u2801-\u28ff]/;
const SPARK = /[▁▂▃▄▅▆▇█]{8,}/;
const HHMM = /\b\d\d:\d\d\b/;
/** SGR colour parameters: 30-37, 90-97, 38;5;n, 38;2;r;g;b (foreground). */
const COLOUR = /\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25])[;m]/;

async function session(name: string, sizes: [number, number][], env: string, zoomAtEnd = false): Promise<{ problems: string[]; screens: Record<string, string> }> {
  const [cols, rows] = sizes[0];
  const t = new TmuxTerminal(`chart-${name}`, cols, rows, home);
  terminals.push(t);
  const problems: string[] = [];
  const screens: Record<string, string> = {};
  t.start('', env);
  await t.waitFor((s) => /✓ \[1\] query_summary/.test(s) && /✓ \[2\] query_traces/.test(s), 'the first look', 180_000);
  await t.waitFor((s) => !s.includes('loading ') && !/⋯ \[\d+\]/.test(s), 'the demo to finish loading', 180_000);
  await t.press('Escape', ':');
  await t.type('chart payment errors p95');
  await t.press('Enter');
  await t.waitFor((s) => /✓ \[4\] query_timeseries/.test(s) && !s.includes('asking coral_query_timeseries'), 'both signals charted', 60_000);
  for (const [i, [c, r]] of sizes.entries()) {
    if (i > 0) t.resize(c, r);
    const step = `${name} ${c}x${r}`;
    const checked = await t.checkFrame(step);
    problems.push(...checked.problems);
    screens[`${c}x${r}`] = checked.screen.join('\n');
    if (env.includes('NO_COLOR')) {
      const coloured = t.tmux('capture-pane', '-t', 't', '-p', '-e').split('\n').filter((l) => COLOUR.test(l));
      if (coloured.length) problems.push(`${step}: ${coloured.length} rows carry colour with NO_COLOR set`);
    }
  }
  if (zoomAtEnd) {
    // The sparklines say z zooms; zoomed, the view has the whole width again for braille.
    expect(screens[sizes.map(([c, r]) => `${c}x${r}`).at(-1) as string]).toContain('z: zoom');
    await t.press('z');
    const checked = await t.checkFrame(`${name} zoomed`);
    problems.push(...checked.problems);
    screens.zoomed = checked.screen.join('\n');
  }
  return { problems, screens };
}

/** What a chart screen must show: both signals with their units, the onset, time labels. */
function expectChart(screen: string, size: string, mode: 'braille' | 'spark'): void {
  expect(screen, size).toContain('5 Chart');
  expect(screen, size).toMatch(/errors \{error\}/);
  expect(screen, size).toMatch(/P95 latency ms/);
  expect(screen, size).toMatch(/onset \d\d:\d\d/);
  expect(screen, size).toMatch(HHMM);
  if (mode === 'braille') {
    expect(screen, size).toMatch(BRAILLE);
    expect(screen, size).toMatch(/\d┤/);
    expect(screen, size).toContain('▲');
    // The time axis: two tick labels on one row.
    expect(screen, size).toMatch(/\d\d:\d\d {2,}\d\d:\d\d/);
  } else {
    expect(screen, size).toMatch(SPARK);
    expect(screen, size).not.toMatch(BRAILLE);
  }
}

describe('the Chart tab in a real terminal', () => {
  it('draws :chart payment errors p95 at 160x48, 80x24 and 60x20 (sparklines; z zooms back to braille), resized, equal to a full redraw', async () => {
    const { problems, screens } = await session('colour', [[160, 48], [80, 24], [60, 20]], '', true);
    expect(problems).toEqual([]);
    expectChart(screens.zoomed, '60x20 zoomed', 'braille');
    expectChart(screens['160x48'], '160x48', 'braille');
    expectChart(screens['80x24'], '80x24', 'braille');
    expectChart(screens['60x20'], '60x20', 'spark');
  }, 600_000);

  it('with NO_COLOR: no colour at all, the charts told apart by their titles, the onset by its marks and label', async () => {
    const { problems, screens } = await session('nocolor', [[80, 24], [60, 20], [160, 48]], 'NO_COLOR=1');
    expect(problems).toEqual([]);
    expectChart(screens['80x24'], '80x24', 'braille');
    expectChart(screens['60x20'], '60x20', 'spark');
    expectChart(screens['160x48'], '160x48', 'braille');
  }, 600_000);
});
