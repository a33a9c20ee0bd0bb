import { EventEmitter } from 'node:events';
import { appendFileSync } from 'node:fs';
import { colorEnabled, stripColor } from '../theme/palette.js';
import { frameUpdate } from './frame-diff.js';
import { MOUSE_OFF, MOUSE_ON, mouseEnabled } from './mouse.js';

/** Alternate screen, hidden cursor, no autowrap: a row that is too wide is cut, never wrapped. */
const ENTER = '\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[H\x1b[2J';
const LEAVE = '\x1b[?7h\x1b[?25h\x1b[?1049l';
const RESIZE_SETTLE_MS = 40;
const STALE_WAIT_MS = 1000;

/**
 * The terminal as ink sees it: ink renders in debug mode (each write is one whole frame, no cursor
 * moves of its own) into this stream, and this stream draws the frames on the real terminal with
 * absolute positions (frame-diff.ts). Frames are coalesced to one write per turn of the event loop.
 */
export class TerminalScreen extends EventEmitter {
  readonly isTTY = true;
  private drawn: string[] | null = null;
  private pending: string | null = null;
  private last = '';
  private scheduled = false;
  private active = false;
  /** Set by CORAL_SCREEN_LOG: one JSON line per drawn frame, for the terminal tests. */
  private readonly logFile = process.env.CORAL_SCREEN_LOG || null;
  private frames = 0;
  /** NO_COLOR: frames lose their colours here, once, whatever ink's colour detection decided. */
  private readonly plain = !colorEnabled();
  private resizedAt = 0;
  private staleTimer: NodeJS.Timeout | null = null;
  /** Mouse reports asked for at enter, and so turned off at leave (the way out of every exit and crash). */
  private readonly mouse = mouseEnabled();

  /** `signals`: where SIGWINCH is heard (the process; a test's emitter). */
  constructor(
    private readonly out: NodeJS.WriteStream = process.stdout,
    private readonly signals: NodeJS.EventEmitter = process,
  ) {
    super();
    this.onResize = this.onResize.bind(this);
    this.onWinch = this.onWinch.bind(this);
  }

  get columns(): number {
    return this.out.columns || 80;
  }

  get rows(): number {
    return this.out.rows || 24;
  }

  enter(): void {
    if (this.active) return;
    this.active = true;
    this.out.write(this.mouse ? ENTER + MOUSE_ON : ENTER);
    this.out.on('resize', this.onResize);
    this.signals.on('SIGWINCH', this.onWinch);
  }

  leave(): void {
    if (!this.active) return;
    this.active = false;
    this.out.off('resize', this.onResize);
    this.signals.off('SIGWINCH', this.onWinch);
    this.out.write(this.mouse ? MOUSE_OFF + LEAVE : LEAVE);
  }

  /** ink writes each frame here. */
  write(frame: string | Uint8Array, ..._rest: unknown[]): boolean {
    this.pending = typeof frame === 'string' ? frame : Buffer.from(frame).toString('utf8');
    this.last = this.pending;
    // The first frame goes out at once: startup work queued behind it would otherwise hold it back.
    if (this.frames === 0) this.flush();
    else this.schedule();
    return true;
  }

  /** Ctrl-L: forget what is on the terminal and draw the last frame whole. */
  redraw(): void {
    this.drawn = null;
    this.pending = this.last;
    this.schedule();
  }

  private onResize(): void {
    // The terminal may have moved or dropped rows: the next frame is drawn whole. ink draws once
    // with the old layout before the console re-renders for the new size: frames wait a moment.
    this.drawn = null;
    this.resizedAt = Date.now();
    this.emit('resize');
  }

  /**
   * node emits 'resize' only when the size it reads on a SIGWINCH differs from the one it read
   * before: a terminal resized and back before the process looks (a busy event loop; tmux sends the
   * two sizes of a quick resize and back 10 ms apart) emits none, yet tmux has cut rows off the top
   * on the way down and added blank ones at the bottom on the way up, and the rows that change next
   * are drawn against a screen that is no longer there. So every
   * SIGWINCH draws the last frame whole (a re-render for a new size, if one comes, replaces it).
   */
  private onWinch(): void {
    this.resizedAt = Date.now();
    if (this.frames > 0) this.redraw();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.flush();
    };
    if (Date.now() - this.resizedAt < RESIZE_SETTLE_MS) setTimeout(run, RESIZE_SETTLE_MS);
    else setImmediate(run);
  }

  private flush(): void {
    if (this.pending === null || !this.active) return;
    const frame = this.plain ? stripColor(this.pending) : this.pending;
    this.pending = null;
    const size = { cols: this.columns, rows: this.rows };
    const u = frameUpdate(this.drawn, frame, size);
    // Right after a resize, a frame wider or taller than the terminal was laid out for the old
    // size: the re-render for the new one is on its way. (Drawn anyway once the wait is over.)
    const stale = u.overflow.length > 0 || u.height > size.rows;
    const waited = Date.now() - this.resizedAt;
    if (stale && waited < STALE_WAIT_MS) {
      this.pending = this.last;
      this.staleTimer ??= setTimeout(() => {
        this.staleTimer = null;
        this.flush();
      }, STALE_WAIT_MS - waited);
      return;
    }
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.staleTimer = null;
    this.drawn = u.lines;
    if (!u.out) return;
    this.out.write(u.out);
    this.frames++;
    if (this.logFile) appendFileSync(this.logFile, `${JSON.stringify({ frame: this.frames, ...size, height: u.height, overflow: u.overflow, full: u.out.includes('\x1b[2J') })}\n`);
  }
}
