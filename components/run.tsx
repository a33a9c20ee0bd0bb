import { render } from 'ink';
import { format } from 'node:util';
import { App, type EngineLike } from './App.js';
import { TerminalScreen } from './screen/terminal.js';
import { osc52 } from './trace/copy.js';
import { type MouseEvent, interceptMouse, mouseEnabled } from './screen/mouse.js';
import type { ConsoleState } from './state/types.js';

/**
 * Full screen on the alternate screen, restored on every way out: quit, Ctrl-C when idle, a
 * signal, an uncaught error. ink renders whole frames into a TerminalScreen, which draws them with
 * absolute cursor positions (ink's own incremental writer draws a row low: T1).
 */
export async function runConsole(engine: EngineLike, initial: ConsoleState): Promise<void> {
  const screen = new TerminalScreen(process.stdout);
  // Anything a library prints would land in the middle of a frame: kept, and shown after the console.
  const printed: string[] = [];
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
  for (const k of Object.keys(saved) as (keyof typeof saved)[]) console[k] = (...args: unknown[]) => void printed.push(format(...args));
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    screen.leave();
    Object.assign(console, saved);
    if (printed.length) process.stderr.write(`${printed.join('\n')}\n`);
  };
  screen.enter();
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
  // Mouse reports are taken out of the input before ink reads it (they would be typed otherwise).
  const listeners = new Set<(e: MouseEvent) => void>();
  const unhook = mouseEnabled() && process.stdin.isTTY ? interceptMouse(process.stdin, (e) => listeners.forEach((l) => l(e))) : () => undefined;
  const mouse = (l: (e: MouseEvent) => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  try {
    // debug: ink hands over each whole frame and writes no cursor moves of its own (and ignores CI: T7).
    // OSC 52 goes straight to the terminal: the screen stream takes only whole frames.
    const copy = (text: string) => void process.stdout.write(osc52(text));
    const app = render(<App initial={initial} engine={engine} redraw={() => screen.redraw()} copy={copy} mouse={mouse} />, {
      stdout: screen as unknown as NodeJS.WriteStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    await app.waitUntilExit();
  } finally {
    unhook();
    restore();
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('uncaughtException', onCrash);
  }
}
