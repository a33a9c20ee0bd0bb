import { describe, expect, it } from 'vitest';
import { ConsoleEngine, type EngineEvent } from '../../src/console/engine.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction } from '../../components/state/types.js';
import { chartLines } from '../../components/chart/chart-lines.js';
import { tempCoralHome } from '../support/coral-home.js';

const { use } = tempCoralHome('engine-chart');

/** The engine's events as the UI's actions (App's fromEngine, for the events a chart needs). */
function action(e: EngineEvent): ConsoleAction | null {
  if (e.type === 'agent') return { type: 'agent', event: e.event, seq: e.seq, quiet: e.quiet, newest: e.newest };
  if (e.type === 'chart') return { type: 'chart_open', service: e.service, signals: e.signals };
  return null;
}

describe('console engine: :chart', () => {
  it(':chart payment errors on the payment-failure demo calls coral_query_timeseries and draws a chart whose onset marker is at the onset step', async () => {
    use();
    const engine = new ConsoleEngine({ demo: 'payment-failure', model: 'triage:automatic' });
    const events: EngineEvent[] = [];
    let found: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (found = resolve));
    engine.subscribe((e) => {
      events.push(e);
      if (e.type === 'agent' && e.event.type === 'tool_call_finished' && e.event.tool === 'coral_query_timeseries') found?.();
    });
    engine.prepare();
    await engine.start();
    engine.runCommand(':chart payment errors');
    await answered;
    await engine.close();

    const started = events.filter((e) => e.type === 'agent' && e.event.type === 'tool_call_started' && e.event.tool === 'coral_query_timeseries');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ event: { args: { service: 'payment', signal: 'errors' } } });
    let s = initialState({ cols: 120, rows: 40, colony: 'embedded', source: 'demo', model: 'm' });
    for (const e of events) {
      const a = action(e);
      if (a) s = reducer(s, a);
    }
    expect(s.tab).toBe('chart');
    const r = s.chart?.results.errors;
    expect(r?.onset?.step, 'the demo\'s payment errors have an onset inside the hour').toEqual(expect.any(Number));
    const step = r?.onset?.step as number;
    const n = r?.times.length as number;

    const cells = 70;
    const lines = (chartLines(s.chart, cells, 20)).map((l) => l.text);
    const axis = lines.find((l) => l.includes('└')) as string;
    const axisCol = axis.indexOf('└') + 1;
    const plotCols = cells - axisCol;
    // Step k of n sits at dot column round(k/(n-1) * (2*cols-1)), two dots a character.
    const want = Math.floor(Math.round((step / (n - 1)) * (2 * plotCols - 1)) / 2);
    expect([...axis].indexOf('▲') - axisCol).toBe(want);
    expect(lines.join('\n')).toContain(`onset ${r?.onset?.time.slice(11, 16)}`);
    expect(lines[1]).toMatch(/^errors \{error\}/);
  }, 120_000);
});
