import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS, ask, ingestFixture, removeChdbDir } from './backends.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import type { Message } from '../../../src/agent/events.js';
import { TriageProvider } from '../../../src/agent/providers/triage.js';
import { QuestionTriageProvider } from '../../../src/agent/providers/question-triage.js';

/**
 * A colony or window with no data says so and names no culprit: when every service went silent at
 * once, the summary used to rank them all "no telemetry" and the triage named the first
 * alphabetically as the root cause.
 */
const T0 = 1_764_671_400_000_000_000n;
const MIN = 60_000_000_000n;

async function triage(provider: TriageProvider | QuestionTriageProvider, question: string, summary: { text: string; structured: Record<string, unknown> }): Promise<string> {
  const messages: Message[] = [{ role: 'user', text: question }, { role: 'tool', results: [{ id: 't1', name: 'coral_query_summary', ok: true, ...summary }] }];
  let text = '';
  for await (const chunk of provider.generate({ system: 'Services that send telemetry: frontend-proxy, unknown_service.', messages, tools: [], toolChoice: 'none' }, new AbortController().signal)) {
    if (chunk.type === 'text') text += chunk.text;
  }
  return text;
}

afterAll(removeChdbDir, 120_000);

describe.each(BACKENDS)('no data, no culprit ($name)', ({ open }) => {
  const withStore = async (f: (store: Colony) => Promise<void>) => {
    const store = await open();
    try {
      await f(store);
    } finally {
      await store.close();
    }
  };

  it('an empty colony says nothing has been received yet', () => withStore(async (store) => {
    const s = await ask(store, T0, 'coral_query_summary', { time_range: '30m' });
    expect(s.text).toContain('No telemetry has been received yet');
    expect(s.structured).toMatchObject({ standOut: [], services: [], intake: 'No telemetry has been received yet: no service has sent anything to this colony.' });
  }), 120_000);

  it('when every service stopped at once, the summary and the triage name the intake, not a service', () => withStore(async (store) => {
    await ingestFixture(store, 'traces', 'envoy-ingress-unset-status.jsonl');
    await ingestFixture(store, 'metrics', 'hostmetrics-process-memory.jsonl');
    const s = await ask(store, T0 + 72n * MIN, 'coral_query_summary', { time_range: '30m' });
    const intake = 'Nothing received since 11:29 UTC (12 min before 11:42 UTC): all 2 services went silent at once. That is the colony\'s intake (collector, exporter, network) or the whole system, not one service.';
    expect(s.structured).toMatchObject({ standOut: [], intake, lookFirst: intake });
    expect((s.structured.services as { signals: string[] }[]).map((c) => c.signals[0])).toEqual(['no telemetry for 12.6 min', 'no telemetry for 13.0 min']);
    expect(s.text).not.toMatch(/Stand out|Nothing stands out/);

    const answer = await triage(new TriageProvider(), 'what is wrong?', s);
    expect(answer).toContain(`Finding: ${intake} [1]`);
    expect(answer).not.toMatch(/Root cause|stands out/);
    const asked = await triage(new QuestionTriageProvider(), 'why is frontend-proxy failing?', s);
    expect(asked).toContain(`Across the colony: ${intake} [1]`);
  }), 120_000);
});
