/**
 * The automatic triage, question to answer, once the colony is loaded: the largest bundled scenario in
 * memory, a mix of questions (first pass, a service's number, a verdict, a route, a before/after).
 * Target (issue 28): <= 1 s per answer.
 */
import { report } from './report.js';
import { openTriageSession } from './triage-session.js';

const QUESTIONS = ["what's going on?", 'fraud detection p95', 'is checkout healthy?', 'POST /api/checkout latency', 'compare p95 of checkout before and after the config change', 'is the kafka consumer lagging?'];
const session = await openTriageSession('kafka-queue-problems');
try {
  await session.ask(QUESTIONS[0]);
  const ms: number[] = [];
  for (let round = 0; round < 2; round++) for (const q of QUESTIONS) ms.push((await session.ask(q)).ms);
  ms.sort((a, b) => a - b);
  const p50 = ms[Math.floor(ms.length / 2)];
  report({ bench: 'triage_question_to_answer', colony: 'demo:kafka-queue-problems', questions: ms.length, p50_ms: Math.round(p50), max_ms: Math.round(ms[ms.length - 1]), target_ms: 1000, meets_target: p50 <= 1000 });
} finally {
  await session.close();
}
