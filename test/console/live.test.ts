/**
 * Live: a console engine on a running colony (`coral colony serve`, ports 0) that receives
 * `coral demo replay` refreshes its summary and trace list as the telemetry arrives, only when the
 * result changed, and stops while paused. The refreshes land in the views without moving the user.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleState } from '../../components/state/types.js';
import { LivePoller, SUMMARY_EVERY, resultKey } from '../../src/console/live.js';
import { ConsoleEngine, type EngineEvent } from '../../src/console/engine.js';

const home = mkdtempSync(join(tmpdir(), 'coral-live-'));
const db = join(home, 'colony.duckdb');
const children: ChildProcess[] = [];
const savedHome = process.env.CORAL_HOME;
let url = '';

function coral(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return child;
}

const until = async (test: () => boolean, what: string, ms = 120_000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

beforeAll(async () => {
  process.env.CORAL_HOME = home;
  const serve = coral(['colony', 'serve', '--db', db, '--otlp-port', '0', '--otlp-grpc-port', '0']);
  let log = '';
  serve.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const file = `${db}.serve.json`;
  await until(() => existsSync(file), `colony serve to start (${log})`, 60_000);
  url = (JSON.parse(readFileSync(file, 'utf8')) as { url: string }).url;
}, 90_000);

afterAll(async () => {
  // The replay first: a colony closing under a sender waits for its requests.
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    // Clean shutdown is tested elsewhere; here a child slow to exit on a loaded machine must not fail the file.
    const slow = setTimeout(() => c.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(slow);
  }
  if (savedHome === undefined) delete process.env.CORAL_HOME;
  else process.env.CORAL_HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
  // colony serve flushes and closes its database on SIGTERM: slow on a busy machine.
}, 60_000);

describe('live refresh against a running colony', () => {
  it('refreshes the summary and the trace list while coral demo replay streams into the colony, and not while paused', async () => {
    const engine = new ConsoleEngine({ colony: url, model: 'triage:automatic', liveIntervalMs: 400 });
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    engine.prepare();
    await engine.start();
    // The startup pass on an empty colony: a summary with no services, then a trace query.
    await until(() => events.filter((e) => e.type === 'agent' && e.event.type === 'tool_call_finished').length >= 2, 'the startup pass');
    expect(events.some((e) => e.type === 'status' && e.patch.live === 'on')).toBe(true);
    const refreshes = () => events.flatMap((e) => (e.type === 'refresh' ? [e] : []));
    expect(refreshes()).toEqual([]);

    // The user is on the Summary tab; the refreshes update it (and the traces behind it) in place.
    let state: ConsoleState = { ...initialState({ cols: 120, rows: 40, colony: url, source: 'remote colony', model: 'm' }), focus: 'detail' };
    for (const e of events) if (e.type === 'agent') state = reducer(state, { type: 'agent', event: e.event, seq: e.seq, quiet: e.quiet });
    expect(state.tab).toBe('summary');
    expect(state.summary.data?.services).toEqual([]);

    const replay = coral(['demo', 'replay', 'payment-failure', '--speed', '200', '--otlp', url]);
    const withServices = () => refreshes().find((r) => r.tool === 'coral_query_summary' && (r.structured.services as unknown[]).length > 0);
    const withTraces = () => refreshes().find((r) => r.tool === 'coral_query_traces' && (r.structured.traces as unknown[]).length > 0);
    await until(() => Boolean(withServices() && withTraces()), 'refreshes with the replayed telemetry');
    for (const r of refreshes()) state = reducer(state, { type: 'refresh', tool: r.tool, structured: r.structured });
    expect(state.tab).toBe('summary');
    expect(state.summary.data?.services.length).toBeGreaterThan(0);
    expect(state.trace.traces.length).toBeGreaterThan(0);
    // Only changes are sent: no two refreshes of one view in a row carry the same result.
    for (const tool of ['coral_query_summary', 'coral_query_traces']) {
      const keys = refreshes().filter((r) => r.tool === tool).map((r) => resultKey(r.structured));
      expect(keys.every((k, i) => i === 0 || k !== keys[i - 1])).toBe(true);
    }

    // The colony had no services at the start: completion learned them from the refreshed summary.
    expect(engine.completions(':metrics front')).toContain(':metrics frontend');
    // Enter on a service in the summary: its metrics follow it live as well.
    engine.openService('frontend');
    await until(() => refreshes().some((r) => r.tool === 'coral_query_metrics'), 'a metrics refresh');

    engine.setLivePaused(true);
    expect(events.at(-1)).toEqual({ type: 'status', patch: { live: 'paused' } });
    // Nothing while paused, not even from a round that was under way.
    const during = refreshes().length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(refreshes().length).toBe(during);
    engine.setLivePaused(false);
    if (replay.exitCode === null) await until(() => refreshes().length > during, 'a refresh after resuming', 60_000);
    await engine.close();
  }, 300_000);
});

describe('the live poller', () => {
  it('follows the last query of each view, sends only changed results, and skips failures', async () => {
    let n = 0;
    const changes: string[] = [];
    const poller = new LivePoller({
      intervalMs: 60_000,
      call: async (id, tool) => ({ id, name: tool, ok: n !== 2, text: '', structured: { traces: [n >= 3 ? 'b' : 'a'], from: String(n++) } }),
      onChange: (r) => changes.push(`${r.tool} ${JSON.stringify(r.args)} ${JSON.stringify(r.structured.traces)}`),
    });
    poller.note('coral_query_traces', { service: 'x' }, { traces: ['a'], from: 'then' });
    // A trace looked up by id is not a list that grows.
    poller.note('coral_get_trace_by_id', { trace_id: 'ab' }, { traces: [] });
    expect(await poller.tick()).toBe(0); // same traces, only the window moved
    expect(await poller.tick()).toBe(0);
    expect(await poller.tick()).toBe(0); // failed: kept
    expect(await poller.tick()).toBe(1);
    expect(changes).toEqual(['coral_query_traces {"service":"x"} ["b"]']);
  });

  it('asks for the summary every third round only', async () => {
    const asked: string[] = [];
    const poller = new LivePoller({ intervalMs: 60_000, call: async (id, tool) => (asked.push(tool), { id, name: tool, ok: true, text: '' }), onChange: () => undefined });
    poller.note('coral_query_summary', {}, { services: [] });
    poller.note('coral_query_metrics', { service: 'x' }, { sections: [] });
    for (let i = 0; i < SUMMARY_EVERY * 2; i++) await poller.tick();
    expect(asked.filter((t) => t === 'coral_query_summary')).toHaveLength(2);
    expect(asked.filter((t) => t === 'coral_query_metrics')).toHaveLength(SUMMARY_EVERY * 2);
  });

  it('sends nothing once paused, even from a query that was under way', async () => {
    const changes: unknown[] = [];
    let calls = 0;
    const poller: LivePoller = new LivePoller({
      intervalMs: 60_000,
      call: async (id, tool) => {
        // p pressed while the first query runs.
        if (calls++ === 0) poller.paused = true;
        return { id, name: tool, ok: true, text: '', structured: { traces: ['new'] } };
      },
      onChange: (r) => changes.push(r.structured),
    });
    poller.note('coral_query_traces', {}, { traces: ['old'] });
    expect(await poller.tick()).toBe(0);
    expect(changes).toEqual([]);
    poller.paused = false;
    // Resumed: the change that was held back is found again.
    expect(await poller.tick()).toBe(1);
    expect(changes).toEqual([{ traces: ['new'] }]);
  });
});
