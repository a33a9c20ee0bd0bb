import sliceAnsi from 'slice-ansi';
import { lineWidth } from './widest-line.js';

/**
 * Turns one full frame into the bytes that put it on the terminal (pure).
 *
 * Every row is addressed absolutely (CSI row;1 H) and no newline is ever written, so a frame can
 * neither scroll the terminal nor land a row off, whatever the previous cursor position was
 * (ink's own incremental writer moves up rows-1 after a frame that ended with a newline: T1).
 * Only rows that changed are rewritten; a row is erased before it is drawn, so nothing of its
 * previous content survives.
 */
export const SYNC_START = '\x1b[?2026h';
export const SYNC_END = '\x1b[?2026l';
const CLEAR = '\x1b[H\x1b[2J';

export interface FrameUpdate {
  /** Bytes to write (empty: nothing changed). */
  out: string;
  /** The lines as drawn (clipped to the terminal): the `prev` of the next update. */
  lines: string[];
  /** Rows whose content was wider than the terminal and had to be cut. */
  overflow: number[];
  /** Rows in the frame as ink drew it (more than the terminal's rows: the rest was cut). */
  height: number;
}

export function splitFrame(frame: string): string[] {
  const lines = frame.split('\n');
  if (frame.endsWith('\n')) lines.pop();
  return lines;
}

/**
 * Clips a row to `cols` terminal cells so it can never wrap onto the next row. Widths are
 * remembered across frames: measuring every coloured row of every frame afresh was most of the
 * cost of drawing a frame on the terminal.
 */
export function clipRow(line: string, cols: number): { line: string; cut: boolean } {
  if (lineWidth(line) <= cols) return { line, cut: false };
  return { line: `${sliceAnsi(line, 0, cols)}\x1b[0m`, cut: true };
}

export function frameUpdate(prev: readonly string[] | null, frame: string, size: { cols: number; rows: number }): FrameUpdate {
  const overflow: number[] = [];
  const all = splitFrame(frame);
  const lines = all.slice(0, Math.max(0, size.rows)).map((l, i) => {
    const c = clipRow(l, size.cols);
    if (c.cut) overflow.push(i);
    return c.line;
  });
  let out = '';
  if (prev === null) {
    out = CLEAR + lines.map((l, i) => (l ? `\x1b[${i + 1};1H${l}` : '')).join('');
  } else {
    const n = Math.max(prev.length, lines.length);
    for (let i = 0; i < n; i++) {
      if (lines[i] === prev[i]) continue;
      out += `\x1b[${i + 1};1H\x1b[2K${lines[i] ?? ''}`;
    }
  }
  // Synchronized output: terminals that know it show the frame whole; the others ignore it.
  return { out: out ? SYNC_START + out + SYNC_END : '', lines, overflow, height: all.length };
}
