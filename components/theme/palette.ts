/**
 * The console's colours (pure). Source tags, markers and errors own their colours; services take
 * theirs from a palette that leaves those out, distinct for the first services a session sees.
 * Colours are 256-colour indices (ink downsamples them on 16-colour terminals).
 */
export const TAG_COLORS = {
  ebpf: 'ansi256(207)',
  otlp: 'ansi256(75)',
  slow: 'ansi256(220)',
  error: 'ansi256(196)',
} as const;

/** Greens, teals, oranges, browns, greys: no magenta, blue, yellow or red, which the tags own. */
export const SERVICE_PALETTE = [
  'ansi256(77)', 'ansi256(80)', 'ansi256(208)', 'ansi256(36)', 'ansi256(150)', 'ansi256(180)',
  'ansi256(122)', 'ansi256(112)', 'ansi256(252)', 'ansi256(137)', 'ansi256(72)', 'ansi256(109)',
  'ansi256(216)', 'ansi256(43)', 'ansi256(187)', 'ansi256(66)',
] as const;

const assigned = new Map<string, string>();

/**
 * A service's colour: its hash picks a slot, and a slot another service already holds moves it
 * to the next free one, so the first 16 services of a session never share a colour.
 */
export function serviceColor(service: string): string {
  const known = assigned.get(service);
  if (known) return known;
  let h = 0;
  for (const ch of service) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  const taken = new Set(assigned.values());
  let slot = h % SERVICE_PALETTE.length;
  for (let i = 0; i < SERVICE_PALETTE.length && taken.has(SERVICE_PALETTE[slot]); i++) slot = (slot + 1) % SERVICE_PALETTE.length;
  assigned.set(service, SERVICE_PALETTE[slot]);
  return SERVICE_PALETTE[slot];
}

/** NO_COLOR (any non-empty value) or a dumb terminal: plain text, the same information. */
export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR && env.TERM !== 'dumb';
}

/**
 * Removes colour from SGR sequences, keeping bold, inverse and the rest (pure): what NO_COLOR
 * leaves of a frame. The selection stays visible as inverse video.
 */
export function stripColor(line: string): string {
  return line.replace(/\x1b\[([0-9;]*)m/g, (_m, params: string) => {
    const p = params === '' ? [0] : params.split(';').map(Number);
    const keep: number[] = [];
    for (let i = 0; i < p.length; i++) {
      const n = p[i];
      if (n === 38 || n === 48 || n === 58) {
        i += p[i + 1] === 5 ? 2 : p[i + 1] === 2 ? 4 : 1;
        continue;
      }
      if ((n >= 30 && n <= 39) || (n >= 40 && n <= 49) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107)) continue;
      keep.push(n);
    }
    return keep.length ? `\x1b[${keep.join(';')}m` : '';
  });
}
