import { describe, expect, it } from 'vitest';
import { completeLine } from '../../components/keys/router.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, SummaryJson, TraceJson } from '../../components/state/types.js';
import { listedTraces, serviceSegments, traceMatches, traceTable } from '../../components/trace/list-view.js';
import { ruler } from '../../components/trace/ruler.js';
import { width } from '../../components/text/width.js';
import type { ServiceChange } from '../../src/colony/unified/summary.js';
import { KEY, mountPerTest, node, tick, trace } from './fixtures.js';

/** Three traces: an old slow one, a failing fast one through payment, the newest and slowest. */
function at(id: string, minute: number, durationMs: number, roots: ReturnType<typeof node>[]): TraceJson {
  const startMs = Date.UTC(2025, 11, 2, 10, minute, 5);
  return { ...trace(roots, 3), traceId: id.repeat(32).slice(0, 32), start: new Date(startMs).toISOString(), startNs: `${startMs}000000`, durationMs };
}
const OLD = at('a', 1, 200, [node('a0', 'frontend', 'GET /cart', 'otlp', 0, 200, [node('a1', 'cart', 'GetCart', 'ebpf', 5, 150)])]);
const FAILING = at('b', 2, 50, [node('b0', 'frontend', 'POST /checkout', 'otlp', 0, 50, [node('b1', 'payment', 'Charge', 'otlp', 5, 30, [], { error: true, attributes: { 'app.payment.card_type': 'visa' } })])]);
const NEWEST = at('c', 3, 500, [node('c0', 'frontend', 'GET /product', 'otlp', 0, 500, [node('c1', 'product-catalog', 'GetProduct', 'ebpf', 5, 480)])]);
const TRACES = [OLD, FAILING, NEWEST];

const ids = (order: number[]) => order.map((i) => TRACES[i].traceId[0]);

describe('the trace list (pure)', () => {
  it('sorts failing first then slowest, slowest first, or most recent first', () => {
    expect(ids(listedTraces(TRACES, 'errors', ''))).toEqual(['b', 'c', 'a']);
    expect(ids(listedTraces(TRACES, 'duration', ''))).toEqual(['c', 'a', 'b']);
    expect(ids(listedTraces(TRACES, 'recent', ''))).toEqual(['c', 'b', 'a']);
  });

  it('filters by service, operation or attribute text, case-insensitively', () => {
    expect(ids(listedTraces(TRACES, 'errors', 'PAYMENT'))).toEqual(['b']);
    expect(ids(listedTraces(TRACES, 'errors', 'getproduct'))).toEqual(['c']);
    expect(ids(listedTraces(TRACES, 'errors', 'card_type=visa'))).toEqual(['b']);
    expect(ids(listedTraces(TRACES, 'duration', '/c'))).toEqual(['a', 'b']);
    expect(traceMatches(OLD, 'nothing-like-this')).toBe(false);
    expect(traceMatches(OLD, '  ')).toBe(true);
  });

  it('lists the services touched with the failing ones first, in their colour, in exactly the cells given', () => {
    const segs = serviceSegments(FAILING, 20);
    expect(segs.map((s) => s.text).join('')).toBe('payment, frontend   ');
    expect(segs[0]).toMatchObject({ text: 'payment', color: expect.any(String) });
    expect(segs.find((s) => s.text === 'frontend')?.color).toBeUndefined();
    expect(serviceSegments(FAILING, 10).map((s) => s.text).join('')).toBe('payment, …');
    for (const cells of [1, 7, 8, 9, 17, 30]) expect(width(serviceSegments(FAILING, cells).map((s) => s.text).join(''))).toBe(cells);
  });

  it('fills the pane exactly: narrow panes drop sources and span counts first; wide ones give the root what it needs and the rest to the services', () => {
    const at = (w: number) => traceTable(TRACES, w);
    const total = (w: number) => at(w).columns.reduce((n, c) => n + c.width, 0) + at(w).columns.length - 1;
    for (const w of [45, 68, 116]) expect(total(w)).toBe(w);
    expect(at(45).columns.map((c) => c.title)).toEqual(['start', 'root', 'duration', 'err']);
    expect(at(68).columns.map((c) => c.title)).toEqual(['start', 'root', 'duration', 'spans', 'err', 'services']);
    const wide = at(116).columns;
    expect(wide.find((c) => c.title === 'root')?.width).toBe(width('frontend: POST /checkout'));
    expect(wide.find((c) => c.title === 'services')?.width).toBeGreaterThan(40);
  });
});

const finished = (tool: string, structured: Record<string, unknown>, quiet?: boolean): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_finished', id: 't', tool, ok: true, durationMs: 1, text: '', structured }, quiet });
const fresh = (): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), focus: 'detail' });

describe('live refreshes in the reducer', () => {
  it('update the views in place: the open trace, the list cursor and the tab stay', () => {
    let s = reducer(fresh(), finished('coral_query_traces', { traces: TRACES }));
    expect(s.trace.traces[s.trace.open as number].traceId[0]).toBe('b');
    s = reducer(s, { type: 'trace_move', delta: 2 });
    s = reducer(s, { type: 'tab', tab: 'summary' });
    const grown = { ...FAILING, spanCount: 9 };
    s = reducer(s, { type: 'refresh', tool: 'coral_query_traces', structured: { traces: [NEWEST, grown] } });
    expect(s.tab).toBe('summary');
    expect(s.trace.traces[s.trace.open as number]).toBe(grown);
    expect(s.trace.cursor).toBe(1);
    // Gone from the result while open: kept, so the view does not change under the user.
    s = reducer(s, { type: 'refresh', tool: 'coral_query_traces', structured: { traces: [NEWEST] } });
    expect(s.trace.traces.map((t) => t.traceId[0])).toEqual(['c', 'b']);
    expect(s.trace.traces[s.trace.open as number].traceId[0]).toBe('b');
  });

  it('a quiet result fills its tab without showing it', () => {
    const s = reducer({ ...fresh(), tab: 'summary' }, finished('coral_query_traces', { traces: TRACES }, true));
    expect(s.tab).toBe('summary');
    expect(s.trace.traces).toHaveLength(3);
  });
});

describe('the time ruler over the span bars', () => {
  it('marks 0, the middle and the whole duration on the bars\' scale, in exactly the cells given', () => {
    expect(ruler(100, 24)).toBe('0·········50ms·····100ms');
    expect(ruler(100, 9)).toBe('0···100ms');
    expect(ruler(100, 6)).toBe(' 100ms');
    for (const cells of [0, 3, 7, 13, 24]) expect(width(ruler(12_345, cells))).toBe(cells);
  });

  it('sits over the bars of an open trace', async () => {
    const { keys, frame } = mount({ cols: 200, traces: [NEWEST] });
    await keys();
    const f = lines(frame());
    const ruled = f.find((l) => l.includes('2 rows'));
    expect(ruled).toMatch(/0·+250ms·+500ms/);
    // The bars take the pane's last cells (rowColumns): the ruler ends at the pane's edge too.
    expect(ruled).toMatch(/500ms│$/);
  });
});

describe('completion in the : line (pure)', () => {
  it('completes one candidate with a space, several as far as they agree, then the first', () => {
    expect(completeLine(':traces pay', [':traces payment'])).toBe(':traces payment ');
    expect(completeLine(':load p', [':load payment-failure', ':load payment-latency'])).toBe(':load payment-');
    expect(completeLine(':load payment-', [':load payment-failure', ':load payment-latency'])).toBe(':load payment-failure ');
    expect(completeLine(':x', [])).toBeNull();
  });
});

function change(service: string, status: string, signals: string[], errorRate = 0): ServiceChange {
  return { service, sources: ['ebpf', 'otlp'], status, ratePerSec: 1.5, prevRatePerSec: 1.4, requests: 90, errors: 0, prevRequests: 80, prevErrors: 0, errorRate, prevErrorRate: 0, p95Ms: 42, prevP95Ms: 40, basis: 'SDK spans', signals, score: 1, chronic: false, failing: errorRate > 0, slower: false, onset: null, trigger: null, explainedBy: null };
}

const SUMMARY: SummaryJson = {
  from: '2025-12-02T10:00:00.000Z', to: '2025-12-02T10:30:00.000Z', previousFrom: '2025-12-02T09:30:00.000Z',
  standOut: [change('payment', 'unhealthy', ['errors 0.0% -> 36.8%', 'explains checkout\'s new failures'], 0.368), change('checkout', 'unhealthy', ['its new failures are failing calls to payment'], 0.36)],
  services: [change('payment', 'unhealthy', [], 0.368), change('checkout', 'unhealthy', [], 0.36), change('cart', 'healthy', [])],
  events: [{ time: '2025-12-02T10:12:00.000Z', serviceName: 'payment', kind: 'deploy', title: 'payment 2.1.0 rolled out' }],
  lookFirst: 'Where to look first: payment (errors 0.0% -> 36.8%). Next: coral_query_metrics {"service": "payment"} and coral_query_traces {"service": "payment"}.',
};

const mount = mountPerTest();
const lines = (frame: string) => frame.split('\n');

describe('the Summary tab (ink-testing-library)', () => {
  it('shows where to look first, the stand-out services with their signals and the recent events; Enter opens the selected service', async () => {
    const { engine, keys, frame } = mount();
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: 's', server: 'colony', tool: 'coral_query_summary', args: { time_range: '30m' } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 's', tool: 'coral_query_summary', ok: true, durationMs: 9, text: '', structured: SUMMARY as unknown as Record<string, unknown> } });
    await keys();
    const f = frame();
    expect(f).toContain('4 Summary');
    expect(f).toContain('Last 30m (10:00-10:30 UTC) against the 30m before');
    expect(f).toContain('Where to look first: payment (errors 0.0% -> 36.8%).');
    expect(f).not.toContain('Next: coral_query_metrics');
    expect(f).toMatch(/ 1\. payment +unhealthy +36\.8% +42ms +1\.50\/s +\[eBPF\]\[OTLP\]/);
    expect(f).toContain("explains checkout's new failures");
    expect(f).toContain('10:12 payment deploy: payment 2.1.0 rolled out');
    expect(f).toMatch(/Other services[\s\S]*cart +healthy/);
    // The status bar hints the Summary keys once the pane has focus.
    await keys(KEY.esc, 'j', KEY.enter);
    expect(frame()).toMatch(/Enter open the service's metrics and worst traces/);
    await keys('j', KEY.enter);
    expect(engine.opened).toEqual(['checkout', 'cart']);
  });

  it('says so when no service sent telemetry, and when nothing stands out', async () => {
    const { engine, keys, frame } = mount();
    const emit = (structured: SummaryJson) => engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 's', tool: 'coral_query_summary', ok: true, durationMs: 9, text: '', structured: structured as unknown as Record<string, unknown> } });
    emit({ ...SUMMARY, standOut: [], services: [], events: [], lookFirst: '' });
    await keys();
    expect(frame()).toContain('No services have sent telemetry in the last 30m.');
    emit({ ...SUMMARY, standOut: [], lookFirst: '' });
    await keys();
    expect(frame()).toContain('Nothing stands out');
    expect(frame()).toMatch(/Services[\s\S]*payment +unhealthy/);
  });
});

describe('the trace list in the console (ink-testing-library)', () => {
  it('shows one row per trace in cells, sorts with s, filters with / (count shown, Esc clears)', async () => {
    for (const cols of [80, 200]) {
      const { keys, frame, app } = mount({ cols, rows: 30, traces: TRACES });
      await keys(KEY.esc, KEY.esc);
      let f = frame();
      expect(f).toContain('3 traces · failing first, then slowest (s)');
      for (const l of lines(f)) expect(width(l)).toBeLessThanOrEqual(cols);
      const rows = () => lines(frame()).filter((l) => /\d\d:\d\d:05/.test(l));
      // Root operations are cut to the column at 80 columns, never wrapped.
      expect(rows().map((l) => l.match(/frontend: (\S+ \/\w{2})/)?.[1])).toEqual(['POST /ch', 'GET /pr', 'GET /ca']);
      expect(rows()[0]).toMatch(/10:02:05 frontend: POST \/ch.* +50ms .*✗1/);
      if (cols === 200) expect(rows()[0]).toMatch(/✗1 payment, frontend +eBPF\+OTLP|✗1 payment, frontend +OTLP only/);
      await keys('s');
      expect(frame()).toContain('slowest first (s)');
      expect(rows()[0]).toContain('GET /pr');
      await keys('s');
      expect(frame()).toContain('most recent first (s)');
      await keys('s', '/', 'p', 'a', 'y');
      f = frame();
      expect(f).toContain('1 of 3 traces match "pay"');
      expect(rows()).toHaveLength(1);
      await keys(KEY.enter);
      expect(frame()).toContain('(Esc clears)');
      await keys(KEY.esc);
      expect(frame()).toContain('3 traces · failing first');
      expect(rows()).toHaveLength(3);
      app.unmount();
    }
  });
});

describe('y copies ids (ink-testing-library)', () => {
  it('copies the trace id from the list and the span id from an open trace, and says so', async () => {
    const { keys, frame, copied } = mount({ traces: TRACES });
    // The failing trace is open: y copies the span under the cursor.
    await keys(KEY.esc, 'j', 'y');
    expect(copied).toEqual(['b1']);
    expect(frame()).toContain('Copied span id b1');
    await keys(KEY.esc, 'j', 'y');
    expect(copied.at(-1)).toBe(NEWEST.traceId);
    expect(frame()).toContain(`Copied trace id ${NEWEST.traceId}`);
  });
});

describe('the : line (ink-testing-library)', () => {
  it('recalls earlier lines with Up and Down, and completes with Tab', async () => {
    const { engine, keys, frame } = mount();
    await keys(':', 't', KEY.tab);
    expect(frame()).toContain(':traces ');
    await keys('p', 'a', 'y', KEY.enter, ':', 'e', 'n', 'v', KEY.enter);
    expect(engine.commands).toEqual([':traces pay', ':env']);
    await keys(':', '\u001b[A');
    expect(frame()).toMatch(/^:env/m);
    await keys('\u001b[A');
    expect(frame()).toMatch(/^:traces pay/m);
    await keys('\u001b[B', '\u001b[B');
    expect(frame()).toMatch(/^: *$/m);
    await keys('\u001b[A', KEY.enter);
    expect(engine.commands.at(-1)).toBe(':env');
  });
});
