import { formatMs } from '../../src/core/format.js';

/** Small display helpers shared by the panes. */

/** formatMs, but long durations in seconds so they fit a narrow column. */
export function ms(v: number): string {
  return v < 10_000 ? formatMs(v) : `${(v / 1000).toFixed(1)}s`;
}

export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width) return text.padEnd(width);
  return width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`;
}

export function shortArgs(args: Record<string, unknown>, width: number): string {
  const s = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ');
  return fit(s, width).trimEnd();
}

/** Wraps text to a width, keeping its own line breaks. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    if (para.length === 0) {
      out.push('');
      continue;
    }
    let line = '';
    for (const word of para.split(/(\s+)/)) {
      if (line.length + word.length > width && line.trim()) {
        out.push(line.trimEnd());
        line = word.trimStart();
      } else line += word;
      while (line.length > width) {
        out.push(line.slice(0, width));
        line = line.slice(width);
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}
