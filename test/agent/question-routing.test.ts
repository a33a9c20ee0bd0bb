import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, Message } from '../../src/agent/events.js';
import { runTurn } from '../../src/agent/loop.js';
import { createProvider } from '../../src/agent/providers/index.js';
import { sessionPath } from '../../src/agent/providers/index.js';
import { readSession } from '../../src/agent/providers/replay.js';
import { resolveAskSettings } from '../../src/agent/config.js';
import { type AgentSession, openAgentSession } from '../../src/agent/setup.js';
import { readMeta } from '../../src/demo/files.js';
import { SCENARIOS } from '../../src/demo/scenarios.js';

type Finished = Extract<AgentEvent, { type: 'tool_call_finished' }>;
type Started = Extract<AgentEvent, { type: 'tool_call_started' }>;

async function turn(session: AgentSession, provider: ReturnType<typeof createProvider>, messages: Message[], question: string) {
  const events: AgentEvent[] = [];
  for await (const ev of runTurn({ provider, hub: session.hub, system: session.system, messages, question })) events.push(ev);
  return {
    events,
    started: events.filter((e) => e.type === 'tool_call_started') as Started[],
    finished: events.filter((e) => e.type === 'tool_call_finished') as Finished[],
    warnings: events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message),
    answer: (events.find((e) => e.type === 'message_end') as { text: string } | undefined)?.text ?? '',
  };
}

const settings = () => resolveAskSettings({ flags: {}, colonyId: 'test' });

describe('a recorded investigation answers only its own question', () => {
  let session: AgentSession;
  beforeAll(async () => {
    session = await openAgentSession({ demo: 'payment-failure' });
  }, 60_000);
  afterAll(() => session.close());

  it('plays for the recorded question, sends another question to the triage, and says which answered; ids never repeat', async () => {
    const replay = createProvider('replay:payment-failure', settings());
    const recorded = readSession(sessionPath('payment-failure'));
    const messages: Message[] = [];
    const first = await turn(session, replay, messages, recorded.question);
    expect(first.warnings[0]).toMatch(/^Answering with the recorded investigation replay:payment-failure/);
    expect(first.started.map((s) => s.tool)).toEqual(recorded.rounds.flatMap((r) => r.toolCalls ?? []).map((c) => c.name));
    expect(first.answer).toMatch(/Root cause: the payment service/);

    const second = await turn(session, replay, messages, 'what is the p99 latency of the cart service?');
    expect(second.warnings[0]).toMatch(/^Not the recorded question \("Why are checkouts failing\?"\): the automatic triage/);
    expect(second.started.map((s) => [s.tool, s.args])).toEqual([['coral_query_summary', { time_range: '30m' }], ['coral_query_metrics', { service: 'cart', time_range: '30m' }]]);
    // One line that answers: cart's P99, on its busiest operation, cited; then the evidence.
    expect(second.answer).toMatch(/^cart: P99 \S+ on its busiest operation oteldemo\.CartService\/GetCart .*\[2\]/);
    expect(second.answer).not.toMatch(/checkouts fail/);
    // cart's P99 from both sources, each as the tool reported it, cited.
    const metrics = second.finished.find((f) => f.tool === 'coral_query_metrics');
    const rows = ((metrics?.structured?.sections ?? []) as { rows: { source: string; p99Ms: number }[] }[]).flatMap((s) => s.rows);
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(['ebpf', 'otlp']));
    expect(second.answer).toMatch(/\[eBPF\] oteldemo\.CartService\/GetCart: P99 \S+, \S+ errors over/);
    expect(second.answer).toMatch(/\[OTLP\] oteldemo\.CartService\/GetCart: P99 \S+, \S+ errors over/);

    // A second replay of the recorded question gets fresh ids: nothing of the first turn is overwritten.
    const third = await turn(session, replay, messages, recorded.question);
    const ids = [...first.started, ...second.started, ...third.started].map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it('says what it can answer when it cannot tell what was asked', async () => {
    const r = await turn(session, createProvider('triage:automatic', settings()), [], 'what is the weather like?');
    expect(r.started).toEqual([]);
    expect(r.answer).toMatch(/could not tell what this question asks[\s\S]*latency \(P50\/P95\/P99\), errors, traffic/);
    expect(r.answer).toMatch(/Services: .*payment/);
  }, 60_000);
});


/**
 * A known gap, expected to fail until the detection side closes it (issue #27): the metrics tool counts
 * no requests for a consumer-only service (fraud-detection's spans are CONSUMER spans), so its
 * operations cannot be listed (its P95 comes from the summary).
 */
const KNOWN_GAPS = new Set(['consumer-lag latency']);
const gap = (scenario: string, question: string) => (KNOWN_GAPS.has(`${scenario} ${question}`) ? it.fails : it);

describe.each(SCENARIOS.map((s) => s.name))('automatic triage answers questions about a named service: %s', (scenario) => {
  let session: AgentSession;
  const service = readMeta(scenario).truth.culprits[0] ?? 'checkout';
  const triage = () => createProvider('triage:automatic', settings());
  beforeAll(async () => {
    session = await openAgentSession({ demo: scenario });
  }, 60_000);
  afterAll(() => session.close());

  gap(scenario, 'latency')(`latency of ${service}`, async () => {
    const r = await turn(session, triage(), [], `what is the latency of ${service}?`);
    expect(r.started.map((s) => s.tool)).toEqual(['coral_query_summary', 'coral_query_metrics']);
    expect(r.answer).toMatch(new RegExp(`^${service}: P95 \\S+ .*\\[1\\]\\.\\n`));
    expect(r.answer).toMatch(new RegExp(`${service} operations, busiest first \\[2\\]:\\n  \\[(eBPF|OTLP)\\] .+: P50 .+, P95 .+, P99 .+ over [\\d,]+ requests`));
  }, 60_000);

  it(`errors of ${service}`, async () => {
    const r = await turn(session, triage(), [], `is ${service} failing?`);
    const state = ((r.finished[0].structured?.services ?? []) as { service: string; failing: boolean }[]).find((s) => s.service === service);
    expect(r.answer).toMatch(new RegExp(`^(Yes|No): ${service} is (down|failing|slow|degraded|healthy): .+\\[1\\]\\.`));
    if (state?.failing) expect(r.answer).toMatch(/^Yes/);
  }, 60_000);

  it(`traffic of ${service}`, async () => {
    const r = await turn(session, triage(), [], `how much traffic does ${service} get?`);
    expect(r.answer).toMatch(new RegExp(`^${service}: \\d+\\.\\d{2} requests/s \\([\\d,]+ requests\\).* \\[1\\]\\.`));
  }, 60_000);

  it(`traces of ${service}`, async () => {
    const r = await turn(session, triage(), [], `show me the traces of ${service}`);
    expect(r.started.map((s) => [s.tool, s.args.service])).toEqual([['coral_query_summary', undefined], ['coral_query_traces', service]]);
    expect(r.answer).toMatch(new RegExp(`^${service}'s traces, failing first, then slowest: [0-9a-f]{32} \\(.+\\[2\\]\\.`));
  }, 60_000);
});
