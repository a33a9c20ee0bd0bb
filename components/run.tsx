import { render } from 'ink';
import { App, type EngineLike } from './App.js';
import type { ConsoleState } from './state/types.js';

const ENTER_ALT = '\x1b[?1049h\x1b[H';
const LEAVE_ALT = '\x1b[?1049l';

/**
 * Full screen on the alternate screen, restored on every way out: quit, Ctrl-C when idle, a
 * signal, an uncaught error (ink 6 has no option for it: T1).
 */
export async function runConsole(engine: EngineLike, initial: ConsoleState): Promise<void> {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.stdout.write(`\x1b[?25h${LEAVE_ALT}`);
  };
  process.stdout.write(ENTER_ALT);
  process.once('exit', restore);
  const onSignal = () => {
    restore();
    process.exit(130);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  const onCrash = (err: unknown) => {
    restore();
    process.stderr.write(`coral: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  };
  process.once('uncaughtException', onCrash);
  try {
    // 60 fps: ink's throttle (leading edge) would otherwise hold a keypress's frame up to 33 ms.
    const app = render(<App initial={initial} engine={engine} />, { exitOnCtrlC: false, patchConsole: true, maxFps: 60, incrementalRendering: true });
    await app.waitUntilExit();
  } finally {
    restore();
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('uncaughtException', onCrash);
  }
}
