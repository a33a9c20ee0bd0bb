import { formatMs, formatPercent } from '../../core/format.js';

/**
 * A service's state in one word, from everything the summary read about it (pure): silence, new or
 * chronic errors, latency, traffic and saturation, not errors alone; with the reason in words.
 */
export type HealthWord = 'down' | 'failing' | 'slow' | 'degraded' | 'healthy';

/** The summary's fields for one service that the verdict reads (unified/summary.ts ServiceChange). */
export interface ServiceState {
  service: string;
  status: string;
  signals: string[];
  failing: boolean;
  slower: boolean;
  chronic: boolean;
  errorRate: number;
  prevErrorRate: number | null;
  p95Ms: number | null;
  prevP95Ms: number | null;
  ratePerSec: number;
  prevRatePerSec: number | null;
  requests: number;
  explainedBy: string | null;
  trigger: string | null;
  onset: string | null;
}

/** More traffic than before is load, not trouble: "traffic 0.33/s -> 0.82/s". */
function trafficRise(signal: string): boolean {
  const m = /^traffic ([\d.]+)\/s -> ([\d.]+)\/s$/.exec(signal);
  return m !== null && Number(m[2]) > Number(m[1]);
}

/** Signals that say where a service stands, not how it relates to others. */
export const ownSignals = (s: ServiceState): string[] =>
  s.signals.filter((x) => !x.startsWith('started ') && !x.startsWith('explains ') && !x.includes('is spent waiting on') && !trafficRise(x));

export function healthWord(s: ServiceState): HealthWord {
  if (s.status === 'silent' || s.signals.some((x) => x.startsWith('no telemetry') || x === 'traffic stopped' || x.startsWith('sends no telemetry'))) return 'down';
  if (s.failing || s.status === 'unhealthy' || s.signals.some((x) => x.startsWith("rejects its callers' calls") || x.includes('times out waiting on it'))) return 'failing';
  if (s.slower) return 'slow';
  if (s.status !== 'healthy' || s.chronic || ownSignals(s).length > 0) return 'degraded';
  return 'healthy';
}

/** The figures behind the word: its own signals, else its current rate, errors and P95. */
export function healthReason(s: ServiceState): string {
  const own = ownSignals(s);
  if (own.length > 0) return own.slice(0, 3).join('; ');
  const p95 = s.p95Ms === null ? '' : `, P95 ${formatMs(s.p95Ms)}${s.prevP95Ms !== null ? ` (was ${formatMs(s.prevP95Ms)})` : ''}`;
  return `${s.ratePerSec.toFixed(2)} req/s, ${formatPercent(s.errorRate)} errors${p95}, no change beyond noise`;
}

/** "Is cart the problem?", "was it the ad deploy?", "is payment to blame?": a question about the cause, not the state. */
export const asksCulprit = (q: string) => /\b(the (problem|cause|culprit|issue|root cause|reason)|to blame|causing (it|this|the)|responsible|was it)\b/.test(q.toLowerCase());

const GOOD_WORDS = /\b(healthy|ok|okay|fine|good|alive|working|up|normal|stable|recovered)\b/;
const DOWN_WORDS = /\b(down|dead|offline|unreachable|not responding|gone)\b/;
const SLOW_WORDS = /\b(slow\w*|latenc\w*|lagging|timing out|timeouts?)\b/;
const FAIL_WORDS = /\b(fail\w*|erroring|errors?|broken|5\d\d|crash\w*)\b/;

/**
 * "Yes" or "No" to a yes/no question about one service: "is X healthy?" is yes only when healthy;
 * "is X down?" only when it sends nothing; "is X slow?" when slower; "is X failing?" when failing;
 * any other bad word ("degraded", "having issues") when it is not healthy. (A question about the
 * cause is answered against what stands out first, by the caller: question-answer.ts.)
 */
export function verdict(question: string, s: ServiceState): 'Yes' | 'No' {
  const q = question.toLowerCase();
  const w = healthWord(s);
  // "worse than usual?": a change against the window before, not a chronic state.
  const changed = s.failing || s.slower || w === 'down';
  if (/\bworse than\b|\bnew\b/.test(q)) return changed ? 'Yes' : 'No';
  if (/\bbetter than\b/.test(q)) return 'No';
  if (DOWN_WORDS.test(q)) return w === 'down' ? 'Yes' : 'No';
  // Slower is slower whatever else is wrong: a failing service that also slowed is slow (currency: failing, P95 1.2 -> 371 ms).
  if (SLOW_WORDS.test(q)) return s.slower ? 'Yes' : 'No';
  if (FAIL_WORDS.test(q)) return w === 'failing' || w === 'down' || (s.chronic && s.errorRate > 0.01) ? 'Yes' : 'No';
  if (GOOD_WORDS.test(q)) return w === 'healthy' ? 'Yes' : 'No';
  return w === 'healthy' ? 'No' : 'Yes';
}
