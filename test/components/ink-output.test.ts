import { describe, expect, it } from 'vitest';
// ink's own class, by file: the package exports only its entry point.
import InkOutput from '../../node_modules/ink/build/output.js';
import Output from '../../components/screen/ink-output.js';
import widestLine from '../../components/screen/widest-line.js';
import inkWidestLine from 'widest-line';
import { Random } from '../../src/core/random.js';

/**
 * The bundle swaps ink's Output for components/screen/ink-output.ts (and widest-line for the
 * cached one): every frame must be the string ink's class gives for the same writes, including
 * on later frames, when rows come from the cross-frame cache.
 */
type Op = { kind: 'write'; x: number; y: number; text: string; inverse: boolean } | { kind: 'clip'; x1?: number; x2?: number; y1?: number; y2?: number } | { kind: 'unclip' };

const WORDS = ['GET /api', 'frontend', '漢字の表示', '🙂 ok', 'e\u0301te', '├─ │  └─', '✗ ← SLOW', '[eBPF]', '', '  ', 'x'.repeat(30)];
const STYLES = ['', '\x1b[31m', '\x1b[1m', '\x1b[48;5;33m', '\x1b[38;2;10;20;30m'];

function randomText(r: Random): string {
  const lines = Array.from({ length: r.int(1, 3) }, () => {
    let s = '';
    for (let i = r.int(1, 4); i > 0; i--) {
      const style = r.pick(STYLES);
      s += style ? `${style}${r.pick(WORDS)}\x1b[0m` : r.pick(WORDS);
    }
    return s;
  });
  return lines.join('\n');
}

function randomFrame(r: Random, width: number, height: number): Op[] {
  const ops: Op[] = [];
  let depth = 0;
  for (let i = r.int(1, 25); i > 0; i--) {
    const roll = r.next();
    if (roll < 0.1) {
      depth++;
      ops.push(r.chance(0.5) ? { kind: 'clip', x1: r.int(0, width / 2), x2: r.int(width / 2, width), y1: r.int(0, 3), y2: r.int(3, height) } : { kind: 'clip', x1: r.int(-2, 5), x2: r.int(5, width + 3) });
    } else if (roll < 0.15 && depth > 0) {
      depth--;
      ops.push({ kind: 'unclip' });
    } else {
      ops.push({ kind: 'write', x: r.int(-2, width - 3), y: r.int(-2, height + 1), text: r.chance(0.05) ? '' : randomText(r), inverse: r.chance(0.3) });
    }
  }
  return ops;
}

const inverse = (s: string) => `\x1b[7m${s}\x1b[27m`;

function draw(out: { write: (x: number, y: number, text: string, o: { transformers: ((s: string, i: number) => string)[] }) => void; clip: (c: { x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined }) => void; unclip: () => void; get: () => { output: string; height: number } }, ops: Op[]) {
  for (const op of ops) {
    if (op.kind === 'write') out.write(op.x, op.y, op.text, { transformers: op.inverse ? [inverse] : [] });
    else if (op.kind === 'clip') out.clip({ x1: op.x1, x2: op.x2, y1: op.y1, y2: op.y2 });
    else out.unclip();
  }
  return out.get();
}

describe('the cached ink Output', () => {
  it('gives the frame ink gives, write for write, frame after frame', () => {
    const r = new Random(10);
    for (let frame = 0; frame < 150; frame++) {
      const width = r.int(1, 40);
      const height = r.int(1, 8);
      const ops = randomFrame(r, width, height);
      // Twice: the second time every row comes from the cache.
      for (let pass = 0; pass < 2; pass++) expect(draw(new Output({ width, height }), ops), `frame ${frame} pass ${pass}`).toEqual(draw(new InkOutput({ width, height }), ops));
    }
  });

  it('lays wide characters and styles into cells as ink does', () => {
    const ops: Op[] = [
      { kind: 'write', x: 0, y: 0, text: '\x1b[31m漢字\x1b[39m and 🙂', inverse: false },
      { kind: 'write', x: 1, y: 0, text: 'X', inverse: true },
      { kind: 'write', x: 0, y: 1, text: 'a\nb\nc\nd', inverse: false },
    ];
    const ours = draw(new Output({ width: 12, height: 3 }), ops);
    expect(ours).toEqual(draw(new InkOutput({ width: 12, height: 3 }), ops));
    expect(ours.output.split('\n')).toHaveLength(3);
  });

  it('measures the widest line as widest-line does', () => {
    for (const t of ['', 'abc', '漢字\nab', '\x1b[31mred\x1b[0m\n🙂🙂', 'e\u0301\n\n  x  ']) {
      expect(widestLine(t)).toBe(inkWidestLine(t));
      expect(widestLine(t)).toBe(inkWidestLine(t));
    }
  });
});
