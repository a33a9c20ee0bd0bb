import { describe, expect, it } from 'vitest';
import { ColonyStore } from '../../src/colony/store/store.js';
import { ingestExport } from '../../src/colony/otlp/ingest.js';
import { runTool } from '../../src/colony/tools/run.js';
import { toolByName } from '../../src/colony/tools/index.js';
import { createToolContext } from '../../src/colony/tools/types.js';
import { exportResults } from '../../src/console/export.js';
import { sessionRecord } from '../../src/console/session-record.js';
import type { EngineEvent } from '../../src/console/engine.js';
import { MIN, T0 } from '../support/otlp-json.js';
import { CONSUMER_TRACE, PRODUCER_TRACES, kafkaBatchExports } from '../support/real-shapes.js';

describe('an exported session', () => {
  it('keeps, in its full results, the span links of the trees its tool calls returned', async () => {
    const store = await ColonyStore.open({ path: ':memory:' });
    try {
      for (const body of kafkaBatchExports()) await ingestExport(store, 'traces', 'json', Buffer.from(JSON.stringify(body)));
      const args = { trace_id: CONSUMER_TRACE };
      const r = await runTool(toolByName('coral_query_traces')!, createToolContext(store, () => T0 + MIN), args);
      const events: EngineEvent[] = [
        { type: 'agent', event: { type: 'user_message', text: 'what consumed the batch?' } },
        { type: 'agent', event: { type: 'tool_call_started', id: 'c1', server: 'colony', tool: 'coral_query_traces', args }, seq: 1 },
        { type: 'agent', event: { type: 'tool_call_finished', id: 'c1', tool: 'coral_query_traces', ok: true, durationMs: 5, text: r.text }, seq: 1 },
      ];
      const log = events.map((event) => ({ at: '2026-11-27T18:00:00.000Z', event }));
      const md = exportResults(sessionRecord(log, { colony: 'embedded', source: 'test', model: 'm' }, '2026-11-27T18:01:00.000Z'));
      expect(md).toContain(`accounting: orders receive`);
      expect(md).toContain(`2 links: trace ${PRODUCER_TRACES[0]}`);
    } finally {
      await store.close();
    }
  });
});
