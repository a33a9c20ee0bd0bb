/** A demo colony loaded once in memory, asked many questions by the automatic triage. */
import { ColonyStore } from '../src/colony/store/store.js';
import { createColonyServer } from '../src/colony/server.js';
import { createToolContext } from '../src/colony/tools/types.js';
import { runTurn } from '../src/agent/loop.js';
import { ToolHub } from '../src/agent/toolhub.js';
import { QuestionTriageProvider } from '../src/agent/providers/question-triage.js';
import { systemPrompt } from '../src/agent/prompt.js';
import type { AgentEvent, Message } from '../src/agent/events.js';
import { loadScenario } from '../src/demo/load.js';

export interface TriageSession {
  ask(question: string): Promise<{ answer: string; calls: string[]; ms: number }>;
  close(): Promise<void>;
}

export async function openTriageSession(scenario: string, endAtNs = BigInt(Date.now()) * 1_000_000n): Promise<TriageSession> {
  const store = await ColonyStore.open({ path: ':memory:', memoryLimit: '2GB' });
  await loadScenario(store, scenario, { endAtNs });
  const services = (await store.listServices()).map((s) => s.serviceName);
  const hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer(createToolContext(store, () => endAtNs)) }]);
  const system = systemPrompt({ now: new Date(Number(endAtNs / 1_000_000n)), services });
  return {
    async ask(question) {
      const t = performance.now();
      const events: AgentEvent[] = [];
      const messages: Message[] = [];
      for await (const ev of runTurn({ provider: new QuestionTriageProvider(), hub, system, messages, question })) events.push(ev);
      const answer = (events.filter((e) => e.type === 'message_end') as { text: string }[]).map((e) => e.text).join('\n');
      const calls = events.flatMap((e) => (e.type === 'tool_call_started' ? [`${e.tool} ${JSON.stringify(e.args)}`] : []));
      return { answer, calls, ms: performance.now() - t };
    },
    async close() {
      await hub.close();
      await store.close();
    },
  };
}
