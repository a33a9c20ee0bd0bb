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

/** The flags read and checked: the --since span, and the bounds --from/--to fix (absent: not given). */
interface FlagBounds {
  since: string;
  fromNs?: Nanos;
  toNs?: Nanos;
}

function flagBounds(f: WindowFlags, defaultSince: string, now: Nanos): FlagBounds {
  const since = f.since ?? defaultSince;
  parseDuration(since);
  const fromNs = f.from === undefined ? undefined : parseInstant(f.from, now);
  const toNs = f.to === undefined ? undefined : parseInstant(f.to, now);
  if (fromNs !== undefined && fromNs >= (toNs ?? now)) {
    throw new CoralError(toNs === undefined ? `--from ${f.from} is not in the past (${nsToIso(fromNs)}).` : `--from must be before --to (${nsToIso(fromNs)} is not before ${nsToIso(toNs)}).`);
  }
  return { since, fromNs, toNs };
}

/**
 * --since alone counts back from now; --from and --to fix the window (--from alone runs to now,
 * --to alone goes --since back from it). Absolute bounds travel as start/end, so a running colony
 * answers an old window exactly as its file would.
 */
export function windowArgs(f: WindowFlags, defaultSince: string, now: Nanos = nowNs()): WindowArgs {
  const { since, fromNs, toNs } = flagBounds(f, defaultSince, now);
  const end = toNs === undefined ? {} : { end: nsToIso(toNs) };
  if (fromNs === undefined) return { time_range: since, ...end };
  return { start: nsToIso(fromNs), ...end };
}

/** The window a `coral ask` or console turn is about, when a flag names one. */
export function askWindowOf(f: WindowFlags, now: Nanos = nowNs()): AskWindow | undefined {
  if (f.since === undefined && f.from === undefined && f.to === undefined) return undefined;
  const b = flagBounds(f, '30m', now);
  const toNs = b.toNs ?? now;
  const fromNs = b.fromNs ?? toNs - parseDuration(b.since);
  const flags = [f.since !== undefined && f.from === undefined ? `--since ${f.since}` : '', f.from !== undefined ? `--from ${f.from}` : '', f.to !== undefined ? `--to ${f.to}` : ''].filter(Boolean).join(' ');
  return { start: nsToIso(fromNs), end: nsToIso(toNs), label: `${formatWindow({ fromNs, toNs }, now)}, from ${flags}` };
}
