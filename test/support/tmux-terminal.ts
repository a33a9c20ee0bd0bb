import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';

/**
 * The built `coral` binary in a real terminal (tmux, its own socket), driven by keys and read back
 * with capture-pane. `settle` waits until nothing is being drawn; `checkFrame` then compares the
 * screen with what a forced full redraw (Ctrl-L) puts there, which an incremental frame drawn a
 * row off, a leftover row or a wrapped line cannot match.
 */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FrameLog {
  frame: number;
  /** Drawn whole (after Ctrl-L or a resize), not as the rows that changed. */
  full: boolean;
  cols: number;
  rows: number;
  height: number;
  overflow: number[];
}

export class TmuxTerminal {
  readonly socket: string;
  readonly log: string;

  constructor(readonly name: string, public cols: number, public rows: number, private readonly home: string) {
    this.socket = `coral-term-${process.pid}-${name}`;
    this.log = join(home, `screen-${name}.log`);
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Starts the binary in a shell, so the test can also see the terminal it leaves behind; `env`: more VAR=value words for it (NO_COLOR=1). */
  start(args = '', env = ''): void {
    this.tmux('new-session', '-d', '-s', 't', '-x', String(this.cols), '-y', String(this.rows), 'bash --norc --noprofile');
    // Ink prints only the last frame when CI=true: the app runs without it (T7). No job control
    // (set +m): a console stopped by resizeAndBackUnseen is not taken for a job stopped at the prompt.
    this.tmux('send-keys', '-t', 't', `set +m; env -u CI CORAL_HOME=${this.home} HONEYCOMB_API_KEY= CORAL_SCREEN_LOG=${this.log} PS1='$ ' ${env ? `${env} ` : ''}${process.execPath} dist/coral.js ${args}; echo CORAL-EXITED-$?`, 'Enter');
  }

  /** Keys by tmux name (Enter, Escape, C-l, PageDown, BTab) or literal text with `literal`. */
  async keys(...keys: string[]): Promise<void> {
    for (const k of keys) {
      this.tmux('send-keys', '-t', 't', k);
      // A key right after Escape would read as Meta+key; keys after a focus change can be lost (T6).
      await sleep(k === 'Escape' ? 120 : 40);
    }
  }

  /**
   * Keys that change the screen: returns once the console has drawn a frame after them. On a busy
   * machine the console may read keys late, and a screen captured before that proves nothing.
   */
  async press(...keys: string[]): Promise<void> {
    const before = this.frames().length;
    await this.keys(...keys);
    const until = Date.now() + 8_000;
    while (this.frames().length === before && Date.now() < until) await sleep(50);
  }

  async type(text: string): Promise<void> {
    this.tmux('send-keys', '-t', 't', '-l', text);
    await sleep(40);
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.tmux('resize-window', '-t', 't', '-x', String(cols), '-y', String(rows));
  }

  /**
   * Resizes to `cols` x `rows` and back while the console is stopped, as an event loop too busy to
   * look would be: node then reads the size it already had and emits no 'resize', yet tmux has moved
   * the rows on the screen. Returns whether it did (the step proves nothing otherwise).
   */
  async resizeAndBackUnseen(cols: number, rows: number): Promise<boolean> {
    const [shell, tty] = this.tmux('display', '-p', '-t', 't', '#{pane_pid} #{pane_tty}').trim().split(' ');
    const pid = Number(execFileSync('ps', ['-o', 'pid=', '--ppid', shell], { encoding: 'utf8' }).trim());
    // tmux changes its screen at once but tells the pane (TIOCSWINSZ, SIGWINCH) up to 250 ms later:
    // the console stays stopped until the pane's own size is back where it was.
    const ttyIs = async (c: number, r: number) => {
      const until = Date.now() + 5_000;
      while (execFileSync('stty', ['-F', tty, 'size'], { encoding: 'utf8' }).trim() !== `${r} ${c}` && Date.now() < until) await sleep(20);
    };
    const before = this.screen().join('\n');
    process.kill(pid, 'SIGSTOP');
    try {
      this.tmux('resize-window', '-t', 't', '-x', String(cols), '-y', String(rows));
      await ttyIs(cols, rows);
      this.tmux('resize-window', '-t', 't', '-x', String(this.cols), '-y', String(this.rows));
      await ttyIs(this.cols, this.rows);
      return this.screen().join('\n') !== before;
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  }

  screen(): string[] {
    return this.tmux('capture-pane', '-t', 't', '-p').replace(/\n$/, '').split('\n');
  }

  frames(): FrameLog[] {
    if (!existsSync(this.log)) return [];
    return readFileSync(this.log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as FrameLog);
  }

  async waitFor(test: (screen: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < until) {
      last = this.screen().join('\n');
      if (test(last)) return last;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
  }

  /** Waits until no frame has been drawn for `quietMs` and the screen reads the same. */
  async settle(quietMs = 400, timeoutMs = 30_000): Promise<string[]> {
    const until = Date.now() + timeoutMs;
    let frames = this.frames().length;
    let screen = this.screen().join('\n');
    let since = Date.now();
    while (Date.now() < until) {
      await sleep(80);
      const f = this.frames().length;
      const s = this.screen().join('\n');
      if (f !== frames || s !== screen) {
        frames = f;
        screen = s;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) return s.split('\n');
    }
    throw new Error(`the screen never settled; it was:\n${screen}`);
  }

  /**
   * The frame checks after each step: the screen equals the one a forced full redraw draws, every
   * frame filled the terminal exactly and no row had to be cut, and the status bar is on the last
   * row, once.
   */
  async checkFrame(step: string): Promise<{ problems: string[]; screen: string[] }> {
    let before = await this.settle();
    let framesBefore = this.frames();
    await this.keys('C-l');
    let after = await this.settle();
    // New data drawn around the forced redraw (a frame that is not the redraw: a refresh landing, a
    // page read) makes the two screens differ for a reason of its own: check again, at most twice.
    // A stale incremental frame alone draws no further frame, so it cannot hide behind this.
    for (let retry = 0; retry < 2 && before.join('\n') !== after.join('\n') && this.frames().slice(framesBefore.length).some((f) => !f.full); retry++) {
      before = after;
      framesBefore = this.frames();
      await this.keys('C-l');
      after = await this.settle();
    }
    const problems: string[] = [];
    if (before.join('\n') !== after.join('\n')) problems.push(`${step}: the screen differs from a full redraw:\n--- incremental\n${before.join('\n')}\n--- full redraw\n${after.join('\n')}`);
    const wide = after.filter((l) => stringWidth(l) > this.cols);
    if (wide.length) problems.push(`${step}: ${wide.length} rows wider than ${this.cols}`);
    for (const f of framesBefore.slice(-20)) {
      if (f.overflow.length) problems.push(`${step}: frame ${f.frame} had rows wider than the terminal: ${f.overflow.join(',')}`);
      if (f.height > f.rows) problems.push(`${step}: frame ${f.frame} was ${f.height} rows for a ${f.rows}-row terminal`);
    }
    const small = this.cols < 60 || this.rows < 20;
    if (!small) {
      const status = after[this.rows - 1] ?? '';
      if (!/embedded|demo:|tokens|Ctrl-C/.test(status)) problems.push(`${step}: the last row is not the status bar: "${status}"`);
      const copies = after.filter((l) => l.trim() && l.trim() === status.trim()).length;
      if (copies !== 1) problems.push(`${step}: the status bar appears ${copies} times`);
      if (!/^[╭╔]/.test(after[0] ?? '')) problems.push(`${step}: the first row is not the top border: "${after[0]}"`);
      if (after.length !== this.rows) problems.push(`${step}: captured ${after.length} rows for a ${this.rows}-row terminal`);
    }
    return { problems, screen: after };
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
