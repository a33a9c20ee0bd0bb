import { ColonyStore } from '../colony/store/store.js';
import { createColonyServer } from '../colony/server.js';
import { createToolContext } from '../colony/tools/types.js';
import { runTurn } from '../agent/loop.js';
import { ToolHub } from '../agent/toolhub.js';
import { BUILT_IN } from '../agent/config.js';
import { bundledSession, createProvider } from '../agent/providers/index.js';
import { TRIAGE_MODEL } from '../agent/providers/triage.js';
import { systemPrompt } from '../agent/prompt.js';
import type { Message } from '../agent/events.js';
import { CoralError } from '../core/errors.js';
import { Gate } from '../core/gate.js';
import { SCENARIOS } from '../demo/scenarios.js';
import { SERVICES } from '../demo/world.js';
import { loadScenario } from '../demo/load.js';
import { type Outcome, type QuestionKind, type Tally, renderClock, scoreAnswer, tally } from '../demo/question-eval.js';
import type { QuestionFile } from '../demo/question-files.js';

/**
 * `coral demo eval --questions`: every question of a question set asked of the agent `coral ask --demo`
 * runs without a model key (the scenario's recorded investigation for its own question, the automatic
 * triage for every other), on the scenario's colony loaded once and shifted to end now, as `coral ask`
 * loads it. Each answer is scored by question-eval.ts.
 */
export interface QuestionResult {
  scenario: string;
  id: string;
  kind: QuestionKind;
  heldOut: boolean;
  /** The question as asked (clock times filled in). */
  q: string;
  outcome: Outcome;
  misses: string[];
  answer: string;
  seconds: number;
}

const SERVICE_NAMES = SERVICES.map((s) => s.name);

/** The model `coral ask --demo <scenario>` uses with no model configured (session-settings.ts). */
function keylessModel(scenario: string): string {
  return bundledSession(scenario) ? `replay:${scenario}` : TRIAGE_MODEL;
}

/** Scenarios loaded and asked at once: a load waits on its decode worker and DuckDB, a turn on the tools. */
const SCENARIOS_AT_ONCE = 2;

/**
 * Every question of the files, scenario by scenario. Scenarios run SCENARIOS_AT_ONCE at a time, each
 * asking its questions one after another right after its own load, as `coral ask` would; results
 * come back in scenario order.
 */
export async function runQuestionSet(files: readonly QuestionFile[], o: { scenarios?: string[]; onResult?: (r: QuestionResult) => void } = {}): Promise<QuestionResult[]> {
  const unknown = [...new Set([...files.map((f) => f.scenario), ...(o.scenarios ?? [])])].filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) throw new CoralError(`Unknown scenario ${unknown.join(', ')}.`, `Known: ${SCENARIOS.map((s) => s.name).join(', ')}.`);
  const chosen = SCENARIOS.filter((d) => (!o.scenarios || o.scenarios.length === 0 || o.scenarios.includes(d.name)) && files.some((f) => f.scenario === d.name));
  const gate = new Gate(SCENARIOS_AT_ONCE);
  const perScenario = await Promise.all(chosen.map((def) => gate.run(() => askScenario(def.name, files.filter((f) => f.scenario === def.name), o.onResult))));
  return perScenario.flat();
}

/** One scenario: loaded once into a fresh in-memory colony (shifted to end now), then its questions in order. */
async function askScenario(scenario: string, files: readonly QuestionFile[], onResult?: (r: QuestionResult) => void): Promise<QuestionResult[]> {
  const results: QuestionResult[] = [];
  const store = await ColonyStore.open({ path: ':memory:', memoryLimit: '2GB' });
  try {
    const loaded = await loadScenario(store, scenario);
    const endMs = Number(loaded.toNs / 1_000_000n);
    const hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer(createToolContext(store)) }]);
    try {
      const settings = { model: null, fallbackModels: [], apiKeys: {}, ...BUILT_IN, mcpServers: {}, origin: {} };
      const provider = createProvider(keylessModel(scenario), settings, {});
      for (const file of files) {
        for (const c of file.questions) {
          const started = Date.now();
          const q = renderClock(c.q, endMs);
          const expect = JSON.parse(renderClock(JSON.stringify(c.expect), endMs)) as typeof c.expect;
          const messages: Message[] = [];
          let answer = '';
          let failed = false;
          const system = systemPrompt({ now: new Date(), services: SERVICE_NAMES });
          for await (const ev of runTurn({ provider, hub, system, messages, question: q })) {
            if (ev.type === 'message_end') answer = ev.text;
            if (ev.type === 'turn_end' && (ev.reason === 'error' || ev.reason === 'cancelled' || ev.reason === 'blocked')) failed = true;
          }
          const score = scoreAnswer(answer, expect, SERVICE_NAMES, { question: q, failed });
          const r: QuestionResult = { scenario, id: c.id, kind: c.kind, heldOut: file.heldOut, q, ...score, answer, seconds: (Date.now() - started) / 1000 };
          results.push(r);
          onResult?.(r);
        }
      }
    } finally {
      await hub.close();
    }
  } finally {
    await store.close();
  }
  return results;
}

const OUTCOME_WORD: Record<Outcome, string> = { full: 'full   ', partial: 'PARTIAL', wrong: 'WRONG  ' };

/** One line per question; a miss with its reasons. */
export function formatResult(r: QuestionResult): string {
  const why = r.misses.length > 0 ? `  -- ${r.misses.join('; ')}` : '';
  return `${OUTCOME_WORD[r.outcome]} ${r.scenario}/${r.id} [${r.kind}] "${r.q}"${why}`;
}

export interface QuestionReport {
  tally: Tally;
  byKind: Record<string, Tally>;
  byScenario: Record<string, Tally>;
}

export function report(results: readonly QuestionResult[]): QuestionReport {
  const group = (key: (r: QuestionResult) => string) => {
    const m = new Map<string, Outcome[]>();
    for (const r of results) m.set(key(r), [...(m.get(key(r)) ?? []), r.outcome]);
    return Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, tally(v)]));
  };
  return { tally: tally(results.map((r) => r.outcome)), byKind: group((r) => r.kind), byScenario: group((r) => r.scenario) };
}

export function formatReport(rep: QuestionReport, minFull: number): string {
  const pct = (t: Tally) => `${t.full}/${t.total} ${Math.round(100 * t.fullShare)}%`;
  const rows = (g: Record<string, Tally>) => Object.entries(g).map(([k, t]) => `  ${k.padEnd(30)} ${pct(t).padEnd(12)} partial ${t.partial}, wrong ${t.wrong}`);
  const t = rep.tally;
  return [
    '', 'Per kind of question:', ...rows(rep.byKind), '', 'Per scenario:', ...rows(rep.byScenario), '',
    `Fully answered: ${pct(t)} (target ${Math.round(minFull * 100)}%); partial: ${t.partial}; confidently wrong: ${t.wrong}.`,
  ].join('\n');
}

/** Whether the run passes: the share fully answered reaches `minFull` and nothing is confidently wrong. */
export const passes = (rep: QuestionReport, minFull: number) => rep.tally.fullShare >= minFull && rep.tally.wrong === 0;
