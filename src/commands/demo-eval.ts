import { ColonyStore } from '../colony/store/store.js';
import { createColonyServer } from '../colony/server.js';
import { createToolContext } from '../colony/tools/types.js';
import { runTurn } from '../agent/loop.js';
import { ToolHub } from '../agent/toolhub.js';
import { TriageProvider } from '../agent/providers/triage.js';
import type { AgentEvent, Message } from '../agent/events.js';
import { CoralError } from '../core/errors.js';
import { type IncidentKind, type ScenarioDef, SCENARIOS, SCENARIO_BASE_ISO, SCENARIO_SECONDS } from '../demo/scenarios.js';
import { GENERATOR_VERSION, generateScenario, serialize } from '../demo/generate.js';
import { loadLines, loadScenario } from '../demo/load.js';
import { randomScenario } from '../demo/random.js';

/**
 * `coral demo eval`: the summary and the automatic triage on every scenario, with the committed seed
 * and other seeds of the generator, scored against the ground truth. Each run loads one hour into a
 * fresh in-memory colony, so a seed other than the committed one is generated on the spot (~5 s).
 */
export interface EvalRow {
  scenario: string;
  /** The kind of incident (scenarios.ts), for the per-kind report. */
  kind: IncidentKind;
  seed: number;
  culprits: string[];
  /** 1-based rank of the first culprit among the services that stand out; null when it does not stand out. */
  culpritRank: number | null;
  /** What stands out, most likely cause first (a healthy hour should list nothing). */
  standOut: string[];
  /** The triage's answer names a culprit as the root cause (a healthy hour: says nothing stands out). */
  triageNamed: boolean;
  ok: boolean;
  seconds: number;
}

const END_NS = BigInt(Date.parse('2025-12-02T12:00:00Z')) * 1_000_000n;

/** Whether an answer's root-cause line names a culprit (for a healthy hour: whether it reports nothing). */
export function triageNames(answer: string, culprits: readonly string[]): boolean {
  if (culprits.length === 0) return /nothing stands out/i.test(answer);
  const line = answer.split('\n').find((l) => l.startsWith('Root cause')) ?? '';
  const named = /^Root cause[^:]*: ([\w-]+)/.exec(line)?.[1];
  return named !== undefined && culprits.includes(named);
}

export function judge(culprits: readonly string[], standOut: readonly string[]): { rank: number | null; ok: boolean } {
  if (culprits.length === 0) return { rank: null, ok: standOut.length === 0 };
  const i = standOut.findIndex((s) => culprits.includes(s));
  return { rank: i < 0 ? null : i + 1, ok: i === 0 };
}

export async function evaluate(def: ScenarioDef, seed: number): Promise<EvalRow> {
  const started = Date.now();
  const store = await ColonyStore.open({ path: ':memory:', memoryLimit: '2GB' });
  try {
    if (seed === def.seed && SCENARIOS.includes(def)) await loadScenario(store, def.name, { endAtNs: END_NS });
    else {
      const g = generateScenario({ ...def, seed });
      const meta = {
        name: def.name, story: def.story, seed, generatorVersion: GENERATOR_VERSION, baseTime: SCENARIO_BASE_ISO,
        durationSec: SCENARIO_SECONDS, counts: g.counts, sha256: serialize(g).sha256, truth: def.truth,
      };
      await loadLines(store, meta, g.lines, { endAtNs: END_NS });
    }
    const hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer(createToolContext(store, () => END_NS)) }]);
    try {
      const events: AgentEvent[] = [];
      const messages: Message[] = [];
      for await (const ev of runTurn({ provider: new TriageProvider(), hub, system: '', messages, question: 'What is wrong?' })) events.push(ev);
      const summary = events.find((e) => e.type === 'tool_call_finished' && e.tool === 'coral_query_summary') as { structured?: Record<string, unknown> } | undefined;
      const standOut = ((summary?.structured?.standOut ?? []) as { service: string }[]).map((s) => s.service);
      const answer = (events.find((e) => e.type === 'message_end') as { text: string } | undefined)?.text ?? '';
      const { rank, ok } = judge(def.truth.culprits, standOut);
      const triageNamed = triageNames(answer, def.truth.culprits);
      return { scenario: def.name, kind: def.kind, seed, culprits: def.truth.culprits, culpritRank: rank, standOut, triageNamed, ok: ok && triageNamed, seconds: (Date.now() - started) / 1000 };
    } finally {
      await hub.close();
    }
  } finally {
    await store.close();
  }
}

/** The committed seed first, then `extra` seeds derived from it (stable, so runs are comparable). */
export function seedsFor(def: ScenarioDef, extra: number): number[] {
  return [def.seed, ...Array.from({ length: extra }, (_, i) => def.seed * 7 + 101 * (i + 1))];
}

export function formatTable(rows: readonly EvalRow[]): string {
  const head = ['scenario', 'seed', 'culprit', 'rank', 'triage', 'stand out'];
  const body = rows.map((r) => [
    r.scenario, String(r.seed), r.culprits.join(',') || '(none)',
    r.culprits.length === 0 ? (r.standOut.length === 0 ? 'quiet' : 'NOISY') : (r.culpritRank === null ? 'MISSED' : String(r.culpritRank)),
    r.triageNamed ? 'yes' : 'NO', r.standOut.slice(0, 4).join(', ') || '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const passed = rows.filter((r) => r.ok).length;
  return [
    line(head), ...body.map(line), '', `${passed}/${rows.length} right (culprit first, or a quiet healthy hour, and the triage names it).`,
    '', 'Per kind of incident (top@1: the culprit ranked first, or a quiet hour for none; found: at any rank):', formatKinds(scoreByKind(rows)),
  ].join('\n');
}

/** How one kind of incident fared: Top@1 is the culprit ranked first (for 'none': a quiet hour). */
export interface KindScore {
  kind: IncidentKind;
  runs: number;
  top1: number;
  /** The culprit among what stands out at any rank. */
  found: number;
  triageNamed: number;
  ok: number;
}

export function scoreByKind(rows: readonly EvalRow[]): KindScore[] {
  const byKind = new Map<IncidentKind, KindScore>();
  for (const r of rows) {
    const k = byKind.get(r.kind) ?? { kind: r.kind, runs: 0, top1: 0, found: 0, triageNamed: 0, ok: 0 };
    const quiet = r.culprits.length === 0 && r.standOut.length === 0;
    k.runs++;
    if (r.culpritRank === 1 || quiet) k.top1++;
    if (r.culpritRank !== null || quiet) k.found++;
    if (r.triageNamed) k.triageNamed++;
    if (r.ok) k.ok++;
    byKind.set(r.kind, k);
  }
  return [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

export function formatKinds(scores: readonly KindScore[]): string {
  const head = ['kind', 'runs', 'top@1', 'found', 'triage', 'right'];
  const pct = (n: number, of: number) => `${n}/${of} ${Math.round((100 * n) / of)}%`;
  const body = scores.map((k) => [k.kind, String(k.runs), pct(k.top1, k.runs), pct(k.found, k.runs), pct(k.triageNamed, k.runs), pct(k.ok, k.runs)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

/** Seeds of the random draws: fixed, so two runs draw the same incidents. */
export const RANDOM_SEEDS_FROM = 90_001;

export async function runEval(opts: { scenarios: string[]; seeds: number; random?: number; onRow?: (r: EvalRow) => void }): Promise<EvalRow[]> {
  const unknown = opts.scenarios.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) throw new CoralError(`Unknown scenario ${unknown.join(', ')}.`, `Known: ${SCENARIOS.map((s) => s.name).join(', ')}.`);
  const rows: EvalRow[] = [];
  for (const def of SCENARIOS.filter((s) => opts.scenarios.length === 0 || opts.scenarios.includes(s.name))) {
    for (const seed of opts.seeds > 0 ? seedsFor(def, opts.seeds - 1) : []) {
      const r = await evaluate(def, seed);
      rows.push(r);
      opts.onRow?.(r);
    }
  }
  for (let i = 0; i < (opts.random ?? 0); i++) {
    const def = randomScenario(RANDOM_SEEDS_FROM + i);
    const r = { ...(await evaluate(def, def.seed)), scenario: def.story.replace(/^Random draw \d+: /, 'random: ').replace(/\.$/, '') };
    rows.push(r);
    opts.onRow?.(r);
  }
  return rows;
}
