import { describe, expect, it } from 'vitest';
import { KEY, SMALL, mountPerTest } from './fixtures.js';

const start = mountPerTest();

describe('every result has a visible outcome', () => {
  it('replaces the old trace with what an empty query found', async () => {
    const { frame, engine, keys } = start({ traces: [SMALL] });
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 'c1', server: 'colony', tool: 'coral_query_traces', args: { service: 'nosuchservice', time_range: '30m' } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 'c1', tool: 'coral_query_traces', ok: true, durationMs: 3, text: 'No traces found', structured: { traces: [] } } });
    await keys();
    expect(frame()).toContain('No traces for nosuchservice in the last 30m (try a wider --since)');
    expect(frame()).not.toContain('PlaceOrder');
  });

  it('shows a failed call in its view and in the status line', async () => {
    const { frame, engine, keys } = start({ traces: [SMALL] });
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 'c1', server: 'colony', tool: 'coral_query_traces', args: { max_traces: 0 } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 'c1', tool: 'coral_query_traces', ok: false, durationMs: 3, text: 'Invalid arguments: max_traces: must be >= 1' } });
    await keys();
    const f = frame();
    expect(f).toContain('✗ query_traces failed: Invalid arguments: max_traces: must be >= 1');
    // The status line too (its first cells).
    expect(f.split('\n').at(-1)).toContain('✗ query_traces: Invalid arguments');
  });

  it('says when a metrics query found nothing instead of drawing an empty table', async () => {
    const { frame, engine, keys } = start();
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 'm1', server: 'colony', tool: 'coral_query_metrics', args: { service: 'nosuchservice' } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 'm1', tool: 'coral_query_metrics', ok: true, durationMs: 3, text: '', structured: { service: 'nosuchservice', timeRange: '1h', sections: [], analysis: '', notes: [] } } });
    await keys();
    expect(frame()).toContain('No metrics for nosuchservice in the last 1h');
  });

  it("shows the tool's known services, closest first, for a service the colony does not know", async () => {
    const { frame, engine, keys } = start({ cols: 120, rows: 30 });
    const unknownService = 'No service in this colony is named "chekout". Known services, closest first: checkout, cart.';
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 'm1', server: 'colony', tool: 'coral_query_metrics', args: { service: 'chekout' } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 'm1', tool: 'coral_query_metrics', ok: true, durationMs: 3, text: '', structured: { service: 'chekout', timeRange: '1h', sections: [], analysis: '', notes: [], unknownService } } });
    await keys();
    expect(frame()).toContain('No service in this colony is named "chekout". Known services,');
    expect(frame()).toContain('closest first: checkout, cart.');
    expect(frame()).not.toContain('No metrics for');
  });
});

describe('text from outside', () => {
  it('is drawn with escape sequences made visible, never sent to the terminal', async () => {
    const { frame, engine, keys } = start({ cols: 140, rows: 30 });
    const evil = 'evil\x1b[2J\x1b]0;PWNED\x07svc';
    const trace = { ...SMALL, roots: SMALL.roots.map((r) => ({ ...r, serviceName: evil, name: 'GET /x\x1b]52;c;ZWNobw==\x07' })) };
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 'e1', server: 'colony', tool: 'coral_query_traces', args: { service: evil } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 'e1', tool: 'coral_query_traces', ok: true, durationMs: 3, text: `Traces for ${evil}`, structured: { traces: [trace] } } });
    engine.emit({ type: 'agent', event: { type: 'message_end', text: 'The model says \x1b]52;c;cm0gLXJmIH4=\x07 this.' } });
    engine.emit({ type: 'notice', text: 'notice \x1b[31mred' });
    await keys();
    const f = frame();
    expect(f).toContain('evil\\x1b[2J');
    expect(f).toContain('\\x1b]52;c;');
    expect(f).not.toContain('\x1b]');
    expect(f).not.toContain('\x1b[2J');
    expect(f).not.toContain('\x07');
  });
});

describe('while answers are on their way', () => {
  it('says the demo is loading, then that traces are being found, then shows them', async () => {
    const { frame, engine, keys } = start({ cols: 120, rows: 30 });
    engine.emit({ type: 'status', patch: { loading: 0.42 } });
    await keys();
    expect(frame()).toContain('Loading the demo (42%): the worst traces of its newest minutes show');
    expect(frame()).not.toContain('No traces yet');
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 't1', server: 'colony', tool: 'coral_query_traces', args: { service: 'checkout', time_range: '30m' } } });
    await keys();
    expect(frame()).toContain('Finding traces of checkout… The demo is loading (42%).');
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 't1', tool: 'coral_query_traces', ok: true, durationMs: 3, text: '', structured: { traces: [SMALL] } } });
    await keys();
    expect(frame()).not.toContain('Finding traces');
  });

  it('says where to look first is being worked out, first from the newest minutes, then from the whole hour', async () => {
    const { frame, engine, keys } = start({ cols: 120, rows: 30 });
    engine.emit({ type: 'status', patch: { loading: 0.5 } });
    // Out of the chat input, then tab 4.
    await keys(KEY.esc, '4');
    expect(frame()).toContain('Loading the demo (50%): where to look first comes from its newest');
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 's1', server: 'colony', tool: 'coral_query_summary', args: { time_range: '15m' } } });
    await keys();
    expect(frame()).toContain('Working out where to look first: the last 15m against the 15m');
    expect(frame()).toContain('The demo loads newest first');
    engine.emit({ type: 'status', patch: { loading: null } });
    await keys();
    expect(frame()).not.toContain('newest first');
  });

  it('keeps the plain empty state when nothing runs or loads', async () => {
    const { frame, keys } = start({ cols: 120, rows: 30 });
    await keys();
    expect(frame()).toContain('No traces yet: ask a question');
  });
});

describe('the tool-call pane', () => {
  it('keeps each call on one row with its session number and its time, however long the tool name', async () => {
    const { frame, engine, keys } = start({ cols: 80, rows: 24 });
    const names = ['coral_query_telemetry_logs', 'coral_query_ebpf_http_metrics', 'honeycomb_get_environment_summary'];
    names.forEach((tool, i) => {
      engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: `c${i}`, server: 'colony', tool, args: { service: 'payment', level: 'error', time_range: '30m' } }, seq: i + 11 });
      engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: `c${i}`, tool, ok: true, durationMs: 115, text: 'ok' }, seq: i + 11 });
    });
    await keys();
    const rows = frame().split('\n').filter((l) => /\[1[1-3]\]/.test(l));
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r).toMatch(/✓ \[1[1-3]\] .*115ms│/);
  });
});
