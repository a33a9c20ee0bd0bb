import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskWindow } from '../../src/agent/ask-window.js';
import type { AgentEvent, Message } from '../../src/agent/events.js';
import { runTurn } from '../../src/agent/loop.js';
import { systemPrompt } from '../../src/agent/prompt.js';
import { QuestionTriageProvider } from '../../src/agent/providers/question-triage.js';
import type { ModelProvider } from '../../src/agent/providers/types.js';
import { ToolHub } from '../../src/agent/toolhub.js';
import { createColonyServer } from '../../src/colony/server.js';
import type { ColonyStore } from '../../src/colony/store/store.js';
import { nsToIso } from '../../src/core/time.js';
import { MIN, T0 } from '../support/otlp-json.js';
import { scripted, text } from '../support/scripted-model.js';
import { fixtureStore } from '../colony/store/fixture.js';

// The colony's clock stands a month after the fixture's data: only the turn's window reaches it.
let store: ColonyStore;
let hub: ToolHub;
const SYSTEM = systemPrompt({ now: new Date(Number((T0 + 43_200n * MIN) / 1_000_000n)), services: ['checkout', 'payment'] });
const WINDOW: AskWindow = { start: nsToIso(T0), end: nsToIso(T0 + 10n * MIN), label: '2025-12-02 10:30-10:40 UTC (10 min), from --from 2025-12-02T10:30 --to 2025-12-02T10:40' };

beforeAll(async () => {
  store = await fixtureStore();
  hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer({ store, now: () => T0 + 43_200n * MIN, maxResponseChars: 16_000 }) }]);
});
afterAll(async () => {
  await hub.close();
  await store.close();
});

async function turn(provider: ModelProvider, question: string, window?: AskWindow) {
  const messages: Message[] = [];
  const events: AgentEvent[] = [];
  for await (const ev of runTurn({ provider, hub, system: SYSTEM, messages, question, window })) events.push(ev);
  const started = events.flatMap((e) => (e.type === 'tool_call_started' ? [e] : []));
  const finished = events.flatMap((e) => (e.type === 'tool_call_finished' ? [e] : []));
  const answer = events.flatMap((e) => (e.type === 'message_end' ? [e.text] : [])).join('');
  return { started, finished, answer };
}

describe('a turn about a chosen window', () => {
  it('hands the window to the model in every request and tells it to use start/end in each tool call', async () => {
    const model = scripted([[text('ok')]]);
    await turn(model, 'what happened?', WINDOW);
    expect(model.requests[0].window).toEqual(WINDOW);
    expect(model.requests[0].system).toContain(`The user asked about the window ${WINDOW.label}. Use start="2025-12-02T10:30:00.000Z" end="2025-12-02T10:40:00.000Z" in every tool call`);
    const plain = scripted([[text('ok')]]);
    await turn(plain, 'what happened?');
    expect(plain.requests[0].window).toBeUndefined();
    expect(plain.requests[0].system).not.toContain('start=');
  });

  it('the automatic triage calls its tools with the window and finds the old data', async () => {
    for (const question of ['what is wrong?', 'how is checkout latency?']) {
      const r = await turn(new QuestionTriageProvider(), question, WINDOW);
      expect(r.started.length, question).toBeGreaterThan(0);
      for (const c of r.started) expect(c.args, `${question}: ${c.tool}`).toMatchObject({ start: WINDOW.start, end: WINDOW.end });
      for (const c of r.started) expect(c.args, `${question}: ${c.tool}`).not.toHaveProperty('time_range');
      expect(r.finished.every((f) => f.ok), r.finished.map((f) => f.text).join('\n')).toBe(true);
      expect(r.finished[0].text, question).toMatch(/2025-12-02 10:30-10:40 UTC \(10 min\)/);
    }
    const checkout = await turn(new QuestionTriageProvider(), 'how is checkout latency?', WINDOW);
    expect(checkout.answer).toMatch(/checkout operations, busiest first \[\d\]: *\n +\[(eBPF|OTLP)\] .+: P50 /);
    // The chat line says which window was used.
    expect(checkout.answer).toContain(`Window: ${WINDOW.label}.`);
  });

  it('without a window the triage counts back from now, as before (and finds nothing a month on)', async () => {
    const r = await turn(new QuestionTriageProvider(), 'how is checkout latency?');
    expect(r.started.find((c) => c.tool === 'coral_query_metrics')?.args).toMatchObject({ service: 'checkout', time_range: '30m' });
    expect(r.answer).toMatch(/^checkout: no requests in this window, so no figure to give; down: no telemetry for [\d,.]+ min/);
    expect(r.answer).toMatch(/Window: the last 30 min/);
  });
});
