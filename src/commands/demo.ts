import { nowNs, parseInstant, nsToIso } from '../core/time.js';
import { formatBytes, formatCount } from '../core/format.js';
import { CoralError } from '../core/errors.js';
import { progress } from '../core/progress.js';
import { listScenarios, scenariosDir } from '../demo/files.js';
import { resolve } from 'node:path';
import { jsonForTerminal, terminalSafe } from '../core/terminal-text.js';
import { defaultColonyDbPath } from '../core/paths.js';
import type { ColonyRuntime } from '../colony/runtime.js';
import { findRunningColony } from '../colony/runtime-probe.js';
import { type StoreOptions, openColonyFromOptions } from './colony-open.js';
import { resolveOtlpTarget } from './otlp-target.js';

const print = (text: string) => process.stdout.write(`${text}\n`);

/** `coral demo list`: the bundled scenarios, each with its story and size. */
export function demoList(opts: { json?: boolean }): void {
  const list = listScenarios();
  if (opts.json) {
    print(JSON.stringify(list.map(({ name, story, bytes, counts, truth }) => ({ name, story, bytes, counts, truth })), null, 2));
    return;
  }
  const width = Math.max(...list.map((s) => s.name.length));
  for (const s of list) {
    print(`${s.name.padEnd(width)}  ${formatCount(s.counts.spans).padStart(7)} spans  ${formatBytes(s.bytes).padStart(9)}  ${s.story}`);
  }
  print(`\nLoad one with: coral demo load <name>   (or stream it live: coral demo replay <name> --speed 60)`);
}

/** The colony serving this --db (or the default file), if one runs and proves it (runtime-probe.ts). */
async function runningColony(db: string | undefined): Promise<{ rt: ColonyRuntime; token?: string } | null> {
  if (db === ':memory:') return null;
  return findRunningColony(resolve(db ?? defaultColonyDbPath()), { instead: 'not sending to it' });
}

/** `demo load` into a running colony: the same shifted exports, sent over OTLP/HTTP as fast as it takes them. */
async function loadIntoRunning(name: string, running: { rt: ColonyRuntime; token?: string }, endAtNs: bigint, json: boolean | undefined): Promise<void> {
  const { replayScenario } = await import('../demo/replay.js');
  const { otlpSender } = await import('../demo/otlp-senders.js');
  const { readMeta } = await import('../demo/files.js');
  process.stderr.write(`coral: ${running.rt.db} is served by a running colony (pid ${running.rt.pid}); loading through its OTLP receiver at ${running.rt.url}\n`);
  const sender = otlpSender('http/protobuf', running.rt.url, running.token ? { authorization: `Bearer ${running.token}` } : {});
  const p = progress(`loading ${name}`);
  try {
    const r = await replayScenario(name, { sender, speed: 1, endAtNs, onProgress: ({ sent, total }) => p.update(sent / total) });
    p.done(`${r.sent} exports sent${r.failed.length > 0 ? `, ${r.failed.length} refused` : ''}`);
    for (const f of r.failed.slice(0, 10)) process.stderr.write(`  ${f.signal} at +${f.offsetMs / 1000}s: ${f.reason}\n`);
    if (r.failed.length > 0) process.exitCode = 1;
    const meta = readMeta(name);
    const durationNs = BigInt(meta.durationSec) * 1_000_000_000n;
    const out = { scenario: name, db: running.rt.db, colony: running.rt.url, from: nsToIso(endAtNs - durationNs), to: nsToIso(endAtNs), exports: r.sent, failed: r.failed.length, truth: meta.truth };
    if (json) print(JSON.stringify(out, null, 2));
    else {
      print(`${name} loaded into the colony at ${running.rt.url} (${running.rt.db})`);
      print(`  covers ${out.from} .. ${out.to}`);
      print(`  story: ${meta.story}`);
    }
  } finally {
    sender.close();
  }
}

/** `coral demo load`: a scenario into a colony, shifted so that its hour ends now (or --at). */
export async function demoLoad(name: string, opts: StoreOptions & { at?: string; json?: boolean }): Promise<void> {
  const { loadScenario } = await import('../demo/load.js');
  const endAtNs = opts.at ? parseInstant(opts.at) : undefined;
  // A ClickHouse colony is written directly; a file that a running colony holds, through it.
  const running = opts.clickhouse ? null : await runningColony(opts.db);
  if (running) {
    await loadIntoRunning(name, running, endAtNs ?? nowNs(), opts.json);
    return;
  }
  const store = await openColonyFromOptions(opts, { create: true });
  try {
    const p = progress(`loading ${name}`);
    const r = await loadScenario(store, name, {
      endAtNs,
      onProgress: ({ exportsDone, exportsTotal, rows }) => p.update(exportsDone / exportsTotal, `(${formatCount(rows)} rows)`),
    });
    p.done(`${formatCount(r.accepted.spans)} spans, ${formatCount(r.accepted.metricPoints)} metric points, ${formatCount(r.accepted.logs)} logs, ${formatCount(r.accepted.events)} events`);
    if (r.rejected > 0) process.stderr.write(`warning: ${r.rejected} items were rejected by the decoder\n`);
    const out = { scenario: name, db: store.path, from: nsToIso(r.fromNs), to: nsToIso(r.toNs), accepted: r.accepted, rejected: r.rejected, truth: r.meta.truth };
    if (opts.json) print(JSON.stringify(out, null, 2));
    else {
      print(`${name} loaded into ${store.path}`);
      print(`  covers ${out.from} .. ${out.to}`);
      print(`  story: ${r.meta.story}`);
    }
  } finally {
    await store.close();
  }
}

/** `coral demo replay`: streams a scenario into a running colony over OTLP (HTTP JSON or protobuf, or gRPC). */
export async function demoReplay(name: string, opts: { speed: string; otlp?: string; protocol?: string; json?: boolean }): Promise<void> {
  const { replayScenario } = await import('../demo/replay.js');
  const { otlpSender } = await import('../demo/otlp-senders.js');
  const speed = Number(opts.speed);
  if (!Number.isFinite(speed) || speed <= 0 || speed > 100_000) {
    throw new CoralError(`Invalid --speed "${opts.speed}".`, 'Use a positive number up to 100000: 1 is real time, 60 plays the hour in a minute.');
  }
  const target = resolveOtlpTarget(opts, process.env, await runningColony(undefined));
  const sender = otlpSender(target.protocol, target.endpoint, target.headers);
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  const p = progress(`replaying ${name} at ${speed}x into ${sender.describe} (from ${target.from})`);
  try {
    const r = await replayScenario(name, {
      sender,
      speed,
      signal: abort.signal,
      onProgress: ({ sent, total, scenarioSec }) => p.update(sent / total, `(minute ${Math.floor(scenarioSec / 60)} of 60)`),
    });
    p.done(`${r.sent} exports sent${r.failed.length > 0 ? `, ${r.failed.length} failed` : ''}`);
    for (const f of r.failed.slice(0, 10)) process.stderr.write(`  ${f.signal} at +${f.offsetMs / 1000}s: ${f.reason}\n`);
    if (r.failed.length > 0) process.exitCode = 1;
    if (opts.json) print(JSON.stringify({ scenario: name, endpoint: target.endpoint, protocol: target.protocol, speed, sent: r.sent, failed: r.failed }, null, 2));
  } catch (err) {
    if (abort.signal.aborted) {
      p.done('stopped');
      return;
    }
    throw err;
  } finally {
    sender.close();
  }
}

/** `coral demo generate`: rebuilds the scenario files from the seeded generator (or checks them). */
export async function demoGenerate(names: string[], opts: { out?: string; check?: boolean }): Promise<void> {
  const { generateScenario, serialize, GENERATOR_VERSION } = await import('../demo/generate.js');
  const { SCENARIOS, SCENARIO_BASE_ISO, SCENARIO_SECONDS } = await import('../demo/scenarios.js');
  const { writeScenarioFiles, readMeta } = await import('../demo/files.js');
  const dir = opts.out ?? scenariosDir();
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) throw new CoralError(`Unknown scenario ${unknown.join(', ')}.`, `Known: ${SCENARIOS.map((s) => s.name).join(', ')}.`);
  let mismatches = 0;
  for (const def of SCENARIOS.filter((s) => names.length === 0 || names.includes(s.name))) {
    const g = generateScenario(def);
    const { text, sha256 } = serialize(g);
    if (opts.check) {
      const same = readMeta(def.name, dir).sha256 === sha256;
      if (!same) mismatches++;
      print(`${def.name}: ${same ? 'identical' : 'DIFFERS from the committed file'}`);
      continue;
    }
    writeScenarioFiles(dir, {
      name: def.name, story: def.story, seed: def.seed, generatorVersion: GENERATOR_VERSION, baseTime: SCENARIO_BASE_ISO,
      durationSec: SCENARIO_SECONDS, counts: g.counts, sha256, truth: def.truth,
    }, text);
    print(`${def.name}: ${formatCount(g.counts.spans)} spans, ${g.counts.exports} exports, sha256 ${sha256.slice(0, 16)}`);
  }
  if (mismatches > 0) process.exitCode = 1;
}

/** `coral demo eval`: the investigation's quality on every scenario and several seeds; exit code 1 unless all are right. */
export async function demoEval(names: string[], opts: { seeds: string; random?: string; json?: boolean; questions?: string | boolean; minFull?: string }): Promise<void> {
  if (opts.questions !== undefined) return demoEvalQuestions(names, { ...opts, questions: opts.questions });
  const seeds = Number(opts.seeds);
  if (!Number.isInteger(seeds) || seeds < 0 || seeds > 20) throw new CoralError(`Invalid --seeds "${opts.seeds}".`, 'Use a whole number from 0 to 20 (0 runs only the random draws).');
  const random = Number(opts.random ?? '0');
  if (!Number.isInteger(random) || random < 0 || random > 200) throw new CoralError(`Invalid --random "${opts.random}".`, 'Use a whole number from 0 to 200.');
  // The CLI settled -o/--json (output-option.ts): json is set exactly when json was asked for.
  const json = opts.json === true;
  const { runEval, formatTable, scoreByKind } = await import('./demo-eval.js');
  const rows = await runEval({
    scenarios: names,
    seeds,
    random,
    onRow: json ? undefined : (r) => process.stderr.write(`  ${r.scenario} seed ${r.seed}: ${r.ok ? 'right' : 'WRONG'} (${r.seconds.toFixed(1)} s)\n`),
  });
  print(json ? JSON.stringify({ rows, kinds: scoreByKind(rows) }, null, 2) : formatTable(rows));
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

/** `coral demo eval --questions`: a question set asked of the keyless agent, each answer scored (demo-eval-questions.ts). */
async function demoEvalQuestions(names: string[], opts: { questions: string | boolean; minFull?: string; json?: boolean }): Promise<void> {
  const minFull = Number(opts.minFull ?? '0.9');
  if (!Number.isFinite(minFull) || minFull < 0 || minFull > 1) throw new CoralError(`Invalid --min-full "${opts.minFull}".`, 'Use a share from 0 to 1, e.g. 0.9.');
  const { readQuestionFiles } = await import('../demo/question-files.js');
  const { runQuestionSet, formatResult, report, formatReport, passes } = await import('./demo-eval-questions.js');
  const { packageRoot } = await import('../core/package-root.js');
  const path = typeof opts.questions === 'string' ? resolve(opts.questions) : resolve(packageRoot(), 'test', 'triage', 'questions');
  const files = readQuestionFiles(path);
  const json = opts.json === true;
  const results = await runQuestionSet(files, { scenarios: names, onResult: json ? undefined : (r) => print(terminalSafe(formatResult(r))) });
  const rep = report(results);
  if (json) print(jsonForTerminal({ ...rep, minFull, results }, 2));
  else print(formatReport(rep, minFull));
  if (!passes(rep, minFull)) process.exitCode = 1;
}
