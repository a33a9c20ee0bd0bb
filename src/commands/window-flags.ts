import type { AskWindow } from '../agent/ask-window.js';
import { CoralError } from '../core/errors.js';
import { type Nanos, formatWindow, nowNs, nsToIso, parseDuration, parseInstant } from '../core/time.js';

/** The window flags of every command that reads a window. */
export interface WindowFlags {
  since?: string;
  from?: string;
  to?: string;
}

/** What the flags ask the tools for: `time_range`, or an absolute `start`/`end` (ISO 8601) that means the same on any colony. */
export interface WindowArgs {
  time_range?: string;
  start?: string;
  end?: string;
}

/**
 * --since alone counts back from now; --from and --to fix the window (--from alone runs to now,
 * --to alone goes --since back from it). Absolute bounds travel as start/end, so a running colony
 * answers an old window exactly as its file would.
 */
export function windowArgs(f: WindowFlags, defaultSince: string, now: Nanos = nowNs()): WindowArgs {
  const since = f.since ?? defaultSince;
  parseDuration(since);
  if (f.from === undefined && f.to === undefined) return { time_range: since };
  const from = f.from === undefined ? undefined : parseInstant(f.from, now);
  const to = f.to === undefined ? undefined : parseInstant(f.to, now);
  if (from !== undefined && from >= (to ?? now)) {
    throw new CoralError(to === undefined ? `--from ${f.from} is not in the past (${nsToIso(from)}).` : `--from must be before --to (${nsToIso(from)} is not before ${nsToIso(to)}).`);
  }
  if (from === undefined) return { time_range: since, end: nsToIso(to as Nanos) };
  return { start: nsToIso(from), ...(to === undefined ? {} : { end: nsToIso(to) }) };
}

/** The window a `coral ask` or console turn is about, when a flag names one. */
export function askWindowOf(f: WindowFlags, now: Nanos = nowNs()): AskWindow | undefined {
  if (f.since === undefined && f.from === undefined && f.to === undefined) return undefined;
  const a = windowArgs(f, '30m', now);
  const toNs = a.end === undefined ? now : parseInstant(a.end, now);
  const fromNs = a.start === undefined ? toNs - parseDuration(a.time_range ?? '30m') : parseInstant(a.start, now);
  const flags = [f.since !== undefined && f.from === undefined ? `--since ${f.since}` : '', f.from !== undefined ? `--from ${f.from}` : '', f.to !== undefined ? `--to ${f.to}` : ''].filter(Boolean).join(' ');
  return { start: nsToIso(fromNs), end: nsToIso(toNs), label: `${formatWindow({ fromNs, toNs }, now)}, from ${flags}` };
}
