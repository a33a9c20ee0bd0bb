import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TerminalScreen } from '../../components/screen/terminal.js';
import { TerminalModel } from '../support/terminal-model.js';

/**
 * TerminalScreen against a modelled terminal, with the races of a resize played in a fixed order:
 * the terminal (tmux) changes first, the process learns of it later (SIGWINCH), and ink draws once
 * with the old layout before the console re-renders for the new size. Whatever the order, the
 * screen must end up as the last frame, and no write may scroll it.
 */

/** A frame filling `cols` x `rows`, every row distinct (a row drawn off by one shows). */
function frame(cols: number, rows: number, step: number): string {
  return Array.from({ length: rows }, (_, i) => (i === 0 ? `top ${cols}x${rows}` : i === rows - 1 ? `status ${cols}x${rows}` : i === 5 ? `answer ${step}` : `row ${i}`)).join('\n');
}

/** process.stdout as node makes it: its size is read again only when a SIGWINCH is handled. */
class FakeTty extends EventEmitter {
  readonly isTTY = true;
  columns: number;
  rows: number;
  readonly writes: string[] = [];
  constructor(readonly term: TerminalModel) {
    super();
    this.columns = term.cols;
    this.rows = term.rows;
  }
  write(data: string): boolean {
    this.writes.push(data);
    this.term.write(data);
    return true;
  }
}

function setup(cols: number, rows: number) {
  const term = new TerminalModel(cols, rows);
  const tty = new FakeTty(term);
  const signals = new EventEmitter();
  const screen = new TerminalScreen(tty as unknown as NodeJS.WriteStream, signals);
  // The console: ink draws at once with the state it has, the re-render for the new size follows.
  let size = { cols, rows };
  let step = 0;
  const render = () => screen.write(frame(size.cols, size.rows, step));
  screen.on('resize', () => {
    render();
    setImmediate(() => {
      size = { cols: screen.columns, rows: screen.rows };
      render();
    });
  });
  screen.enter();
  render();
  return {
    term,
    tty,
    /** One more piece of the streamed answer. */
    stream: () => {
      step++;
      render();
    },
    /** The last frame the console rendered, as rows. */
    expected: () => frame(size.cols, size.rows, step).split('\n'),
    /** node's SIGWINCH handler: 'resize' only if the size it reads now differs from the last one. */
    winch: () => {
      if (tty.columns !== term.cols || tty.rows !== term.rows) {
        tty.columns = term.cols;
        tty.rows = term.rows;
        tty.emit('resize');
      }
      signals.emit('SIGWINCH');
    },
  };
}

/** The terminal shows the last frame the console rendered, and no write has scrolled it. */
function expectLastFrame(s: ReturnType<typeof setup>): void {
  expect(s.term.screen()).toEqual(s.expected());
  expect(s.term.scrolled).toBe(0);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TerminalScreen after a resize', () => {
  it('redraws whole when the terminal was resized and back before the process looked', () => {
    const s = setup(60, 20);
    s.stream();
    vi.advanceTimersByTime(10);
    // tmux shrinks the screen (rows cut from the top) and grows it back (blank rows at the bottom)
    // while the process is busy: node then reads the size it already had and emits no 'resize'.
    s.term.resize(53, 17);
    s.term.resize(60, 20);
    s.winch();
    s.winch();
    // No re-render comes (the size is the same): the last frame is drawn whole, promptly.
    vi.advanceTimersByTime(100);
    expect(s.term.screen()).toEqual(s.expected());
    s.stream();
    vi.advanceTimersByTime(10);
    expectLastFrame(s);
  });

  for (const [cols, rows] of [
    [60, 24],
    [60, 18],
    [53, 17],
    [80, 20],
  ] as const) {
    it(`ends on the new frame when ink first draws one laid out for 60x20 at ${cols}x${rows}`, () => {
      const s = setup(60, 20);
      s.term.resize(cols, rows);
      s.winch();
      s.stream();
      vi.advanceTimersByTime(2000);
      expect(s.term.screen()).toEqual(s.expected());
      s.stream();
      vi.advanceTimersByTime(10);
      expectLastFrame(s);
    });
  }

  it('ends on the new frame when rows drawn for the old size reach the resized terminal', () => {
    const s = setup(60, 20);
    // The terminal is already shorter; the process still reads 60x20 and draws changed rows for it.
    s.term.resize(60, 17);
    s.stream();
    vi.advanceTimersByTime(10);
    s.winch();
    vi.advanceTimersByTime(2000);
    expectLastFrame(s);
  });

  it('never writes a newline, whole frames included', () => {
    const s = setup(60, 20);
    s.term.resize(70, 30);
    s.winch();
    vi.advanceTimersByTime(100);
    s.stream();
    vi.advanceTimersByTime(10);
    expect(s.tty.writes.length).toBeGreaterThan(2);
    expect(s.tty.writes.filter((w) => w.includes('\n'))).toEqual([]);
    expect(s.term.scrolled).toBe(0);
  });
});
