/**
 * Scores one answer of the agent against the facts a question expects: pure, so the question set's
 * verdicts can be tested without a colony. Used by `coral demo eval --questions` and the question-set
 * test.
 *
 * Definitions (each is checked exactly as written here):
 *
 * - The answer's HEAD is its first non-empty line that is not a label line, a label line being
 *   "Automatic triage ...: ..." (a colon before the first period, quoted text aside) or "Answering with
 *   the recorded ..." that states no verdict of its own. The label line just before it is scored with
 *   the head (so "Automatic triage (...): No, ..." still counts); quoted text in a label is left out.
 * - The answer's SUBJECT is the first known service named in the first sentence of the head's answer
 *   line (longest names first, so "frontend-proxy" is not read as "frontend"; routes such as
 *   "GET /api/cart" are not services); none when that sentence names no known service.
 * - A VERDICT is the head (after an optional "Answer:", "Verdict:", "Finding:", "**" or similar)
 *   beginning with "yes" or "no" as a word ("Not healthy" is no verdict).
 *
 * The question's own text, where the answer quotes it ("..." or “...”), is left out before any of this.
 *
 * An answer is CONFIDENTLY WRONG when any of these holds:
 *   1. its subject is one of `mustNotBeAbout` (it answers about a different service as if it were the
 *      one asked), unless the head gives a yes/no and that first sentence also names one of
 *      `headMentions` or `mustMention` ("Yes: unlike fraud-detection, accounting keeps up");
 *   2. `verdict` is expected and the head gives the opposite one;
 *   3. `absent` is expected and the head does not name the absent thing while its subject is a known
 *      service (it answers about something else as if that were what was asked);
 *   4. the head denies that a thing of `mustMention` exists ("there is no currency", "no such service cart").
 * An answer is FULLY ANSWERED when it is not confidently wrong and every expected fact holds:
 *   `mustMention` (each term anywhere in the answer), `mustMentionAny` (one of them), `headMentions`
 *   (each in the head), `verdict`, `numbers` (each near some number of its unit in the answer, or
 *   in the head for one marked `inHead`: the direct answer to "what is the P95" is that number),
 *   `window` (the answer states it), `absent` (the head says it is not here, and the answer lists at
 *   least three known services), `firstLine` (a regex the head matches), and the turn did not fail.
 * Otherwise it is PARTIAL ("could not tell", a missing number, no verdict, ...), with every miss named.
 *
 * The expected numbers come from the tools' own answers on each scenario, in windows relative to the
 * hour's end, with a tolerance (15% unless the question says): the demo is shifted to end at load time,
 * so only relative windows are stable, and a clock time in a question is written relative to the
 * loaded hour (`renderClock`).
 */

export type Unit = 'ms' | '%' | '/s' | 'count';

export interface NumberFact {
  /** The true value (or several acceptable ones, e.g. a service's P95 and its busiest operation's). */
  near: number | number[];
  unit: Unit;
  /** Relative tolerance, 0.15 by default. */
  tolerance?: number;
  /** Absolute tolerance in the unit, for values near zero. */
  abs?: number;
  /** What the number is, for the miss's reason. */
  label?: string;
  /** It must be on the head (the direct answer to "what is the P95 of X" is that number, on the first line). */
  inHead?: boolean;
}

export interface Expect {
  mustMention?: string[];
  mustMentionAny?: string[];
  headMentions?: string[];
  mustNotBeAbout?: string[];
  verdict?: 'yes' | 'no';
  numbers?: NumberFact[];
  /** The window the answer must state: a duration ("15m", "1h", "24h") or a clock time ("11:40"). */
  window?: string;
  /** A thing that does not exist in this colony. */
  absent?: string;
  /** A regex (case-insensitive) the head must match. */
  firstLine?: string;
}

export type QuestionKind =
  | 'vague' | 'typo' | 'verdict' | 'number' | 'compare' | 'window' | 'route' | 'saturation'
  | 'absent' | 'rollback' | 'list' | 'diagnosis' | 'change' | 'traces';

export interface QuestionCase {
  id: string;
  q: string;
  kind: QuestionKind;
  expect: Expect;
}

export type Outcome = 'full' | 'partial' | 'wrong';

export interface Score {
  outcome: Outcome;
  /** Why it is not fully answered (empty when it is). */
  misses: string[];
}

/** A label: "Automatic triage (no model configured)[ answering "..."]: ..." (quotes removed first), or a replay's notice. */
const LABEL_START = /^(automatic triage\b[^:.]*:|answering with the recorded\b)/i;
const unquoted = (line: string) => line.replace(/"[^"]*"|“[^”]*”/g, '""');
const isLabel = (line: string) => LABEL_START.test(unquoted(line));
const VERDICT = /^[\s*_>#-]*(?:(?:answer|verdict|short answer|direct answer|finding)\s*[:-]\s*)?[*_]*\s*(yes|no)\b/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A term as a whole word or phrase, hyphens and spaces alike ("product-catalog" = "product catalog"). */
function termRegex(term: string): RegExp {
  // A clock time also matches inside an ISO timestamp ("2026-01-05T11:34:00Z" names 11:34).
  if (/^\d{1,2}:\d{2}$/.test(term.trim())) return new RegExp(`(^|[^0-9:])${escape(term.trim())}(?![0-9])`);
  const body = term.trim().split(/[-_ ]+/).map(escape).join('[-_ ]?');
  return new RegExp(`(^|[^a-z0-9])${body}(?![a-z0-9])`, 'i');
}

export const mentions = (text: string, term: string): boolean => termRegex(term).test(text);

/** The head: a leading label line (if any) with the first non-empty line that is not a label. */
export function headOf(answer: string): string {
  const lines = answer.split('\n').map((l) => l.trim()).filter(Boolean);
  const i = lines.findIndex((l) => !isLabel(l) || VERDICT.test(afterLabel(l)));
  if (i < 0) return lines.map(unquoted).join('\n');
  // A label that quotes the question ('answering "is billing down?"') must not count as naming its words.
  const label = lines.slice(0, i).slice(-1).map(unquoted);
  return [...label, isLabel(lines[i]) ? unquoted(lines[i]) : lines[i]].join('\n');
}

/** A label line's own words, after its colon. */
function afterLabel(line: string): string {
  const u = unquoted(line);
  return u.slice(u.indexOf(':') + 1).trim();
}

/** Yes or no, from the head's non-label line (or a label line's text after its colon). */
export function verdictOf(head: string): 'yes' | 'no' | null {
  for (const line of head.split('\n')) {
    const text = isLabel(line) ? afterLabel(line) : line;
    const m = VERDICT.exec(text);
    if (m) return m[1].toLowerCase() as 'yes' | 'no';
  }
  return null;
}

/** The first sentence of the head's answer line (a label's own words when the label carries the answer). */
export function firstSentence(head: string): string {
  const lines = head.split('\n');
  const line = lines.find((l) => !isLabel(l)) ?? afterLabel(lines[0] ?? '');
  return line.split(/[.;!?](?:\s|$)/)[0];
}

/**
 * The first known service named in the first sentence of the head's answer line; longer names win where
 * they overlap ("frontend-proxy"). Only the first sentence: "There is no billing. Services: frontend, ..." has no subject.
 */
export function subjectOf(head: string, services: readonly string[]): string | null {
  const sentence = firstSentence(head);
  // Routes and method names are not subjects: "GET /api/cart" is frontend's route, not the cart service.
  const lower = sentence.replace(/\S*\/\S*/g, ' ').toLowerCase();
  let best: { s: string; at: number } | null = null;
  for (const s of [...services].sort((a, b) => b.length - a.length)) {
    const m = termRegex(s).exec(lower);
    if (!m) continue;
    const at = m.index + m[1].length;
    if (best && (at > best.at || (at === best.at))) continue;
    best = { s, at };
  }
  return best?.s ?? null;
}

interface Found { value: number; unit: Unit }

/** Every number in the text with its unit: durations in ms (s and min converted), percents, rates, bare counts. */
export function numbersIn(text: string): Found[] {
  const out: Found[] = [];
  const re = /(-?\d[\d,]*(?:\.\d+)?|-?\.\d+)\s*(ms\b|milliseconds?\b|µs\b|us\b|s\b|sec\b|secs\b|seconds?\b|min\b|mins\b|minutes?\b|%|\/s\b|\/sec\b|per second\b)?/gi;
  for (const m of text.matchAll(re)) {
    const prev = m.index > 0 ? text[m.index - 1] : '';
    // Parts of identifiers, versions and clock times are not quantities ("p95", "2.1.0", "11:35").
    if (/[a-z0-9_.:]/i.test(prev)) continue;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 1);
    if (/[.:]\d/.test(after + text.slice(m.index + m[0].length + 1, m.index + m[0].length + 2)) && !m[2]) continue;
    const v = Number(m[1].replace(/,/g, ''));
    if (!Number.isFinite(v)) continue;
    const u = (m[2] ?? '').toLowerCase();
    if (u === '') out.push({ value: v, unit: 'count' });
    else if (u === '%') out.push({ value: v, unit: '%' });
    else if (u.startsWith('/') || u === 'per second') out.push({ value: v, unit: '/s' });
    else if (u === 'µs' || u === 'us') out.push({ value: v / 1000, unit: 'ms' });
    else if (u.startsWith('ms') || u.startsWith('milli')) out.push({ value: v, unit: 'ms' });
    else if (u.startsWith('min')) out.push({ value: v * 60_000, unit: 'ms' });
    else out.push({ value: v * 1000, unit: 'ms' });
  }
  return out;
}

export function numberMet(fact: NumberFact, found: readonly Found[]): boolean {
  const targets = Array.isArray(fact.near) ? fact.near : [fact.near];
  const tol = fact.tolerance ?? 0.15;
  return found.some((f) => f.unit === fact.unit && targets.some((t) => Math.abs(f.value - t) <= Math.max(Math.abs(t) * tol, fact.abs ?? 0)));
}

/** The spellings of a window: "15m" -> 15 min, 15 minutes, 15m; "1h" -> 1 h, 1 hour, 60 min; a clock time as written. */
export function windowRegex(window: string): RegExp {
  const clock = /^\d{1,2}:\d{2}$/.exec(window);
  if (clock) return new RegExp(`(^|[^0-9])${escape(window)}(?![0-9])`);
  const m = /^(\d+)\s*(m|h|d)$/.exec(window.trim());
  if (!m) return new RegExp(escape(window), 'i');
  const n = Number(m[1]);
  const minutes = m[2] === 'm' ? n : m[2] === 'h' ? n * 60 : n * 1440;
  const forms = [`${minutes}\\s*(m|min|mins|minutes?)`];
  if (minutes % 60 === 0) forms.push(`${minutes / 60}\\s*(h|hr|hrs|hours?)`);
  if (minutes === 60) forms.push('(an|one|the last) hour');
  if (minutes % 1440 === 0) forms.push(`${minutes / 1440}\\s*(d|days?)`);
  return new RegExp(`(^|[^0-9.])(${forms.join('|')})(?![a-z])`, 'i');
}

const DENIES = (term: string) => new RegExp(`(there is no|there's no|no such|does not exist|doesn't exist|no service (named|called)|not in this colony|not found)[^.;]{0,30}${escape(term)}|${escape(term)}[^.;]{0,30}(does not exist|doesn't exist|not found|is not (here|in this colony))`, 'i');
const NOT_HERE = /\b(no|not|isn't|is not|doesn't|does not|don't|unknown|absent|none|never|cannot find|can't find|couldn't find|could not find)\b/i;

/**
 * The outcome of one answer. `services` are the colony's known services (the subject is read among
 * them); `question` is left out of the answer where repeated; `failed`: the turn ended in an error.
 */
export function scoreAnswer(given: string, expect: Expect, services: readonly string[], o: { question?: string; failed?: boolean } = {}): Score {
  // An answer that repeats the question does not thereby mention what the question names.
  const q = o.question?.trim();
  const answer = q ? given.split(`"${q}"`).join('"…"').split(`“${q}”`).join('“…”') : given;
  const failed = o.failed === true;
  const head = headOf(answer);
  const subject = subjectOf(head, services);
  const wrong: string[] = [];
  const misses: string[] = [];
  if (failed) misses.push('the turn failed');
  if (answer.trim() === '') misses.push('no answer');
  const verdict = verdictOf(head);
  // After a yes or no, naming another service first is wrong only when the one asked about is not in that sentence too ("Yes: unlike X, Y keeps up").
  const asked = [...(expect.headMentions ?? []), ...(expect.mustMention ?? [])];
  const excused = verdict !== null && asked.some((t) => mentions(firstSentence(head), t));
  if (subject && expect.mustNotBeAbout?.includes(subject) && !excused) wrong.push(`answers about ${subject}`);
  if (expect.verdict) {
    if (verdict === null) misses.push(`no ${expect.verdict}/no verdict on the first line`);
    else if (verdict !== expect.verdict) wrong.push(`says "${verdict}", the data says "${expect.verdict}"`);
  }
  if (expect.absent) {
    const named = mentions(head, expect.absent);
    if (!named && subject) {
      if (wrong[0] === `answers about ${subject}`) wrong.shift();
      wrong.push(`answers about ${subject} as if it were ${expect.absent}`);
    }
    else if (!named || !NOT_HERE.test(head)) misses.push(`does not say that ${expect.absent} is not here`);
    const listed = services.filter((s) => mentions(answer, s)).length;
    if (listed < 3) misses.push(`does not list what exists (${listed} services named)`);
  }
  for (const t of expect.mustMention ?? []) {
    if (DENIES(t).test(head)) wrong.push(`denies that ${t} exists`);
    else if (!mentions(answer, t)) misses.push(`does not mention ${t}`);
  }
  if (expect.mustMentionAny && !expect.mustMentionAny.some((t) => mentions(answer, t))) misses.push(`mentions none of ${expect.mustMentionAny.join(', ')}`);
  for (const t of expect.headMentions ?? []) if (!mentions(head, t)) misses.push(`first line does not name ${t}`);
  const found = numbersIn(answer);
  const inHead = numbersIn(head);
  for (const n of expect.numbers ?? []) {
    if (!numberMet(n, n.inHead ? inHead : found)) misses.push(`no ${n.label ?? 'number'} near ${[n.near].flat().join(' or ')}${n.unit === 'count' ? '' : n.unit}${n.inHead ? ' on the first line' : ''}`);
  }
  if (expect.window && !windowRegex(expect.window).test(answer)) misses.push(`does not state the window (${expect.window})`);
  if (expect.firstLine) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(expect.firstLine, 'i');
    } catch {
      misses.push(`invalid firstLine pattern ${expect.firstLine}`);
    }
    if (re && !re.test(head)) misses.push(`first line does not match /${expect.firstLine}/`);
  }
  if (wrong.length > 0) return { outcome: 'wrong', misses: [...wrong, ...misses] };
  return { outcome: misses.length === 0 ? 'full' : 'partial', misses };
}

export interface Tally {
  total: number;
  full: number;
  partial: number;
  wrong: number;
  /** full / total (0 for an empty set). */
  fullShare: number;
}

export function tally(outcomes: readonly Outcome[]): Tally {
  const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
  const full = count('full');
  return { total: outcomes.length, full, partial: count('partial'), wrong: count('wrong'), fullShare: outcomes.length === 0 ? 0 : full / outcomes.length };
}

/**
 * Clock times in a question, relative to the loaded hour (the demo is shifted to end at load time):
 * `{{clock:end-20m}}` or `{{clock:start+35m}}` becomes HH:MM in UTC.
 */
export function renderClock(text: string, endMs: number, durationMs = 3_600_000): string {
  return text.replace(/\{\{clock:(start|end)([+-]\d+)m\}\}/g, (_, from: string, off: string) => {
    const at = new Date((from === 'end' ? endMs : endMs - durationMs) + Number(off) * 60_000);
    return `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
  });
}
