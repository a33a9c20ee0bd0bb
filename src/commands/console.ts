import { CoralError } from '../core/errors.js';
import { ConsoleEngine, type EngineOptions } from '../console/engine.js';
import { ensureConsent } from '../agent/consent.js';
import { type WindowFlags, askWindowOf } from './window-flags.js';

/** `coral` with no command: the investigation console. */
export async function consoleCommand(opts: EngineOptions & WindowFlags & { scenario?: string; yes?: boolean }): Promise<void> {
  const window = askWindowOf(opts);
  const demo = opts.scenario ?? opts.demo;
  if (demo && !opts.colony && !opts.db) {
    // Checked before the screen is taken: the list of scenarios is the useful answer.
    const { listScenarios } = await import('../demo/files.js');
    const names = listScenarios().map((s) => s.name);
    if (!names.includes(demo)) throw new CoralError(`Unknown scenario "${demo}".`, `Available: ${names.join(', ')} (coral demo list tells their stories).`);
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CoralError('The console needs a terminal (stdin and stdout must be a TTY).', 'For scripts and pipes use: coral ask "<question>" --demo payment-failure (or --json).');
  }
  const engine = new ConsoleEngine({ ...opts, demo, window });
  const model = engine.prepare();
  // Asked here, on the normal screen, before the console takes it.
  if (model.cloud) await ensureConsent(model.name.split(':')[0], { yes: opts.yes });
  // Raw mode before the UI loads: keys typed meanwhile wait, unechoed, for the chat input.
  process.stdin.setRawMode(true);
  process.once('exit', () => process.stdin.setRawMode(false));
  const [{ runConsole }, { initialState }] = await Promise.all([import('../../components/run.js'), import('../../components/state/reducer.js')]);
  const initial = initialState({ cols: process.stdout.columns ?? 100, rows: process.stdout.rows ?? 30, ...engine.describeColony(), model: 'starting…' });
  // The first frame comes before the colony: the engine starts behind it and reports progress.
  setImmediate(() => {
    engine.start().catch((err: Error & { hint?: string }) => engine.fail(`${err.message}${err.hint ? ` ${err.hint}` : ''}`));
  });
  await runConsole(engine, initial);
  await engine.close();
}
