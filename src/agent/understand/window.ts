import type { AskWindow } from '../ask-window.js';

/**
 * The window a question's words ask about (pure): relative ("in the last 15 minutes", "past hour"),
 * clock times in UTC ("since 13:05", "between 13:00 and 13:20"), "yesterday", and windows anchored on
 * what the colony knows ("before and after the deploy", "since the incident started"). Parsing needs
 * only the words; resolving needs now and the anchors (change events, onsets) from the summary.
 */
export type AnchorKind = 'deploy' | 'change' | 'incident' | 'restart';

export type WindowWords =
  | { kind: 'last'; seconds: number; words: string }
  | { kind: 'clock'; from: number; to: number | null; words: string }
  | { kind: 'yesterday'; words: string }
  | { kind: 'anchor'; anchor: AnchorKind; mode: 'around' | 'since'; words: string; at?: number };

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, secs: 1, second: 1, seconds: 1, m: 60, min: 60, mins: 60, minute: 60, minutes: 60, h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600, d: 86400, day: 86400, days: 86400, w: 604800, week: 604800, weeks: 604800 };
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, few: 5, five: 5, ten: 10, fifteen: 15, twenty: 20, thirty: 30, 'half an': 0.5, half: 0.5, couple: 2, 'a couple of': 2 };

const RELATIVE = /\b(?:in the |over the |for the |during the )?(?:last|past|previous|recent)\s+(?:(\d+(?:\.\d+)?|a couple of|half an|a|an|one|two|three|few|five|ten|fifteen|twenty|thirty|couple)\s*)?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)\b/;
const COMPACT = /\b(?:last|past)\s*(\d+(?:\.\d+)?)(s|m|h|d|w)\b/;
const AGO = /\b(\d+)\s*(m|mins?|minutes?|h|hrs?|hours?)\s+ago\b/;
const CLOCK = String.raw`(\d{1,2})(?::(\d{2}))?\s*(am|pm)?`;
const BETWEEN = new RegExp(String.raw`\b(?:between|from)\s+${CLOCK}\s*(?:utc\s*)?(?:and|to|-|until|till)\s*${CLOCK}`);
const DASH = new RegExp(String.raw`\b(\d{1,2}):(\d{2})\s*(?:-|–|to)\s*(\d{1,2}):(\d{2})\b`);
const SINCE_CLOCK = new RegExp(String.raw`\b(?:since|after|from)\s+${CLOCK}\b`);
const AT_CLOCK = /\b(?:at|around)\s+(\d{1,2}):(\d{2})\b/;
const ANCHORS: [RegExp, AnchorKind][] = [
  [/\b(deploy\w*|release\w*|rollout|roll-out|rolled out|new version|upgrade)\b/, 'deploy'],
  [/\b(config\w*|flag\w*|change)\b/, 'change'],
  [/\b(restart\w*|crash\w*|oom\w*)\b/, 'restart'],
  [/\b(incident|outage|it started|started|onset|problem began|began|spike|regression)\b/, 'incident'],
];

/** Minutes after midnight UTC for a clock time, or null when it is not one. */
function minutesOf(h: string, m: string | undefined, ampm: string | undefined): number | null {
  let hour = Number(h);
  const min = m === undefined ? 0 : Number(m);
  if (ampm === 'pm' && hour < 12) hour += 12;
  if (ampm === 'am' && hour === 12) hour = 0;
  if (hour > 23 || min > 59 || (m === undefined && ampm === undefined)) return null;
  return hour * 60 + min;
}

export function windowWords(question: string): WindowWords | null {
  const q = question.toLowerCase().replace(/[’']/g, "'");
  const anchorKind = (text: string) => ANCHORS.find(([re]) => re.test(text))?.[1] ?? null;
  const around = /\bbefore (?:and|vs\.?|versus|\/) after\b(.*)|\b(?:before|after) (?:and|vs\.?|versus) (?:before|after)\b(.*)|\baround the\b(.*)/.exec(q);
  if (around) {
    const rest = around[1] ?? around[2] ?? around[3] ?? '';
    // "before and after 13:20": anchored on that clock time (UTC).
    const clock = new RegExp(String.raw`^\s*(?:the\s+)?${CLOCK}`).exec(rest);
    const at = clock ? minutesOf(clock[1], clock[2] ?? '00', clock[3]) : null;
    if (clock && at !== null) return { kind: 'anchor', anchor: 'change', mode: 'around', words: around[0].trim(), at };
    return { kind: 'anchor', anchor: anchorKind(rest) ?? 'incident', mode: 'around', words: around[0].trim() };
  }
  const between = BETWEEN.exec(q);
  if (between) {
    const from = minutesOf(between[1], between[2], between[3]);
    const to = minutesOf(between[4], between[5], between[6] ?? between[3]);
    if (from !== null && to !== null) return { kind: 'clock', from, to, words: between[0].trim() };
  }
  const dash = DASH.exec(q);
  if (dash) return { kind: 'clock', from: Number(dash[1]) * 60 + Number(dash[2]), to: Number(dash[3]) * 60 + Number(dash[4]), words: dash[0] };
  const since = SINCE_CLOCK.exec(q);
  if (since) {
    const from = minutesOf(since[1], since[2], since[3]);
    if (from !== null) return { kind: 'clock', from, to: null, words: since[0] };
  }
  const at = AT_CLOCK.exec(q);
  if (at) {
    const mid = Number(at[1]) * 60 + Number(at[2]);
    if (Number(at[1]) < 24 && Number(at[2]) < 60) return { kind: 'clock', from: Math.max(0, mid - 5), to: mid + 5, words: at[0] };
  }
  const sinceAnchor = /\b(?:since|after) (?:the |that |this |it |its )?(.*)/.exec(q);
  if (sinceAnchor) {
    const a = anchorKind(sinceAnchor[1].split(/[,.?;]/)[0]);
    if (a) return { kind: 'anchor', anchor: a, mode: 'since', words: sinceAnchor[0].split(/[,.?;]/)[0].trim() };
  }
  const rel = RELATIVE.exec(q) ?? COMPACT.exec(q);
  if (rel) {
    const n = rel[1] === undefined ? 1 : (NUMBER_WORDS[rel[1]] ?? Number(rel[1]));
    const seconds = n * UNIT_SECONDS[rel[2]];
    if (seconds > 0) return { kind: 'last', seconds, words: rel[0].trim() };
  }
  const ago = AGO.exec(q);
  if (ago) return { kind: 'last', seconds: Number(ago[1]) * UNIT_SECONDS[ago[2]], words: ago[0] };
  if (/\byesterday\b/.test(q)) return { kind: 'yesterday', words: 'yesterday' };
  if (/\btoday\b|\b(last|past) (24h|day)\b/.test(q)) return { kind: 'last', seconds: 86400, words: 'today' };
  return null;
}

/** Something the colony knows happened at a time: a deploy, a config change, a restart, an onset. */
export interface Anchor {
  kind: AnchorKind;
  time: string;
  service: string;
  title: string;
}

export interface ResolvedWindow {
  window: AskWindow;
  /** A relative window ending now, as a tool's time_range ("15m"); null when only start/end can say it. */
  timeRange: string | null;
  /** For "before and after X": the two windows and X. */
  compare?: { before: AskWindow; after: AskWindow; anchor: Anchor };
  /** The anchor a "since the deploy" window starts at. */
  anchor?: Anchor;
}

const MIN_MS = 60_000;
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** "13:05-13:35 UTC (30 min)": how the chat names a window. */
export function windowText(startMs: number, endMs: number): string {
  const min = Math.round((endMs - startMs) / MIN_MS);
  const len = min >= 120 && min % 60 === 0 ? `${min / 60} h` : `${min} min`;
  const day = endMs - startMs >= DAY_MS ? `${new Date(startMs).toISOString().slice(0, 10)} ` : '';
  return `${day}${hhmm(startMs)}-${hhmm(endMs)} UTC (${len})`;
}

function askWindow(startMs: number, endMs: number, how: string): AskWindow {
  return { start: iso(startMs), end: iso(endMs), label: `${windowText(startMs, endMs)}, ${how}` };
}

/** A whole number of seconds as a tool's duration ("90s", "15m", "2h"). */
export function durationText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${Math.round(seconds)}s`;
}

/** The time_range reaching back from now to `fromMs` in whole minutes, one at least: rounded, or up with `cover` (to cover all of it). */
export function rangeBackTo(fromMs: number, nowMs: number, cover = false): string {
  return durationText(Math.max(1, (cover ? Math.ceil : Math.round)((nowMs - fromMs) / MIN_MS)) * 60);
}

/** The anchor "the deploy" / "the incident" means: the named services' own first, the latest otherwise. */
export function pickAnchor(kind: AnchorKind, anchors: readonly Anchor[], services: readonly string[]): Anchor | undefined {
  const want = (a: Anchor) => a.kind === kind || (kind === 'change' && a.kind === 'deploy');
  const fits = anchors.filter(want).sort((a, b) => b.time.localeCompare(a.time));
  return fits.find((a) => services.includes(a.service)) ?? fits[0];
}

const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** When the clock last read `minutes` after midnight UTC: today, or yesterday when today's is still to come. */
function lastClock(minutes: number, nowMs: number): number {
  const t = startOfDay(nowMs) + minutes * MIN_MS;
  return t > nowMs ? t - DAY_MS : t;
}

/**
 * The words' window at `nowMs`. A clock time later than now is yesterday's. An anchored window needs
 * its anchor: without one it resolves to null and the caller says what it could not find.
 */
export function resolveWindow(w: WindowWords, nowMs: number, anchors: readonly Anchor[] = [], services: readonly string[] = []): ResolvedWindow | null {
  const how = `from your words "${w.words}"`;
  if (w.kind === 'last') {
    const seconds = Math.round(w.seconds);
    return { window: askWindow(nowMs - seconds * 1000, nowMs, how), timeRange: durationText(seconds) };
  }
  if (w.kind === 'yesterday') {
    const today = startOfDay(nowMs);
    return { window: askWindow(today - DAY_MS, today, how), timeRange: null };
  }
  if (w.kind === 'clock') {
    const start = lastClock(w.from, nowMs);
    let end = w.to === null ? nowMs : start - w.from * MIN_MS + w.to * MIN_MS;
    if (end <= start) end += DAY_MS;
    end = Math.min(end, nowMs);
    if (end <= start) return null;
    return { window: askWindow(start, end, how), timeRange: w.to === null ? rangeBackTo(start, nowMs) : null };
  }
  const clockAt = w.at === undefined ? undefined : lastClock(w.at, nowMs);
  const anchor = clockAt !== undefined ? { kind: w.anchor, time: iso(clockAt), service: '', title: `${hhmm(clockAt)} UTC` } : pickAnchor(w.anchor, anchors, services);
  if (!anchor) return null;
  const at = Date.parse(anchor.time);
  if (w.mode === 'since') {
    if (at >= nowMs) return null;
    return { window: askWindow(at, nowMs, how), timeRange: rangeBackTo(at, nowMs), anchor };
  }
  // Equal windows either side, at most 30 minutes, ending now at the latest.
  const len = Math.max(MIN_MS, Math.min(30 * MIN_MS, nowMs - at));
  const what = anchor.service ? `the ${anchor.kind} at ${hhmm(at)} UTC` : `${hhmm(at)} UTC`;
  const before = askWindow(at - len, at, `before ${what}`);
  const after = askWindow(at, at + len, `after ${what}`);
  return { window: askWindow(at - len, at + len, how), timeRange: null, compare: { before, after, anchor } };
}
