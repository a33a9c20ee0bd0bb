import { type StyledChar, styledCharsFromTokens, styledCharsToString, tokenize } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import { memo } from './cache.js';
import { lineWidth } from './widest-line.js';

/**
 * ink 6.8's Output (build/output.js), which turns the writes of one render into the frame string,
 * producing the same string but composing each row only when what is written on it changed.
 *
 * ink's own class builds a styled cell grid of the whole screen and re-tokenizes every written
 * line on every frame, with caches that live for one frame: on a 160x50 console that was most of
 * a keypress's cost, though a cursor move changes two rows. Here a row's writes (position and
 * text, after ink's transformers) form a key, and a row seen before is taken from a cache that
 * lives across frames. The bundle swaps it in for ink's (scripts/ink-fast-output.mjs);
 * test/components/ink-output.test.ts checks it against ink's class write for write.
 */
type Transformer = (s: string, index: number) => string;
interface Clip {
  x1: number | undefined;
  x2: number | undefined;
  y1: number | undefined;
  y2: number | undefined;
}
type Operation = { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] } | { type: 'clip'; clip: Clip } | { type: 'unclip' };

// Bounded by memory: a line's styled characters are ~100 bytes a cell (a frame needs a few hundred lines).
const styledChars = memo((line: string) => styledCharsFromTokens(tokenize(line)), 2_000);
const widestOf = memo((text: string) => text.split('\n').reduce((w, l) => Math.max(w, lineWidth(l)), 0), 5_000);
/** sliceAnsi of `from,to,line`. */
const sliced = memo((key: string) => {
  const c1 = key.indexOf(',');
  const c2 = key.indexOf(',', c1 + 1);
  return sliceAnsi(key.slice(c2 + 1), Number(key.slice(0, c1)), Number(key.slice(c1 + 1, c2)));
}, 5_000);
/** Rows as ink would print them, keyed by the frame width and the row's writes. */
const rowCache = memo((key: string) => composeRow(key), 5_000);

/** One row written at `x` with `line`: a piece of a row's key that cannot be confused with another. */
const piece = (x: number, line: string) => `${x},${line.length},${line}`;

function composeRow(key: string): string {
  const comma = key.indexOf(',');
  const width = Number(key.slice(0, comma));
  let at = comma + 1;
  // Exactly ink's grid for one row: blank cells, each write's styled characters laid from x on,
  // wide characters followed by an empty cell, then the cells joined and the end trimmed.
  const blank: StyledChar = { type: 'char', value: ' ', fullWidth: false, styles: [] };
  const cells: StyledChar[] = [];
  for (let i = 0; i < width; i++) cells.push(blank);
  while (at < key.length) {
    const c1 = key.indexOf(',', at);
    const c2 = key.indexOf(',', c1 + 1);
    const x = Number(key.slice(at, c1));
    const len = Number(key.slice(c1 + 1, c2));
    const line = key.slice(c2 + 1, c2 + 1 + len);
    at = c2 + 1 + len;
    let offsetX = x;
    for (const character of styledChars(line)) {
      cells[offsetX] = character;
      const characterWidth = Math.max(1, lineWidth(character.value));
      for (let i = 1; i < characterWidth; i++) cells[offsetX + i] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
      offsetX += characterWidth;
    }
  }
  return styledCharsToString(cells.filter((c) => c !== undefined)).trimEnd();
}

export default class Output {
  width: number;
  height: number;
  private readonly operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: 'write', x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: 'clip', clip });
  }

  unclip(): void {
    this.operations.push({ type: 'unclip' });
  }

  get(): { output: string; height: number } {
    const rows: string[] = Array.from({ length: this.height }, () => `${this.width},`);
    const clips: Clip[] = [];
    for (const op of this.operations) {
      if (op.type === 'clip') clips.push(op.clip);
      if (op.type === 'unclip') clips.pop();
      if (op.type !== 'write') continue;
      let { x, y } = op;
      let lines = op.text.split('\n');
      const clip = clips.at(-1);
      if (clip) {
        const clipX = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
        const clipY = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
        if (clipX && (x + widestOf(op.text) < (clip.x1 as number) || x > (clip.x2 as number))) continue;
        if (clipY && (y + lines.length < (clip.y1 as number) || y > (clip.y2 as number))) continue;
        if (clipX) {
          const x1 = clip.x1 as number;
          const x2 = clip.x2 as number;
          lines = lines.map((line) => {
            const from = x < x1 ? x1 - x : 0;
            const w = lineWidth(line);
            const to = x + w > x2 ? x2 - x : w;
            return sliced(`${from},${to},${line}`);
          });
          if (x < x1) x = x1;
        }
        if (clipY) {
          const y1 = clip.y1 as number;
          const y2 = clip.y2 as number;
          const from = y < y1 ? y1 - y : 0;
          const to = y + lines.length > y2 ? y2 - y : lines.length;
          lines = lines.slice(from, to);
          if (y < y1) y = y1;
        }
      }
      // As in ink: a line past the bottom (or above the top) is dropped and does not advance the row.
      let offsetY = 0;
      for (let [index, line] of lines.entries()) {
        const row = y + offsetY;
        if (rows[row] === undefined) continue;
        for (const transformer of op.transformers) line = transformer(line, index);
        rows[row] += piece(x, line);
        offsetY++;
      }
    }
    return { output: rows.map(rowCache).join('\n'), height: rows.length };
  }
}
