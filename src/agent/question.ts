/**
 * What a question asks, as far as a program without a model can tell: the services it names and the
 * signals it asks about. Pure; the automatic triage and the replay routing use it.
 */
export const SIGNALS = ['latency', 'errors', 'traffic', 'traces', 'change'] as const;
export type Signal = (typeof SIGNALS)[number];

export interface QuestionIntent {
  /** Known services named in the question, in the order they appear. */
  services: string[];
  signals: Signal[];
  /** Percentiles asked for by name (50, 95, 99), if any. */
  percentiles: number[];
  /** A "why / what is wrong" question: asks for a diagnosis, not one number. */
  diagnosis: boolean;
}

const SIGNAL_WORDS: Record<Signal, RegExp> = {
  latency: /\b(latenc\w*|slow\w*|p\d{2,3}|percentiles?|response times?|durations?|how (long|fast)|fast(er)?|timeouts?|timing)\b/,
  errors: /\b(errors?|fail\w*|5\d\d|4\d\d|exceptions?|broken|crash\w*|status codes?|error rates?)\b/,
  traffic: /\b(traffic|throughput|rps|qps|request rates?|requests? per \w+|volume|load|how many requests)\b/,
  traces: /\b(traces?|spans?)\b/,
  change: /\b(what changed|changes?|changed|deploy\w*|roll(ed)?[ -]?out|releases?|config\w*|flags?)\b/,
};

const DIAGNOSIS = /\b(why|what('s| is)? (wrong|happening|going on)|root cause|incident|problems?|issues?|broken|down|investigate)\b/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A service is named by its name, with hyphens or spaces alike, singular or plural ("checkouts"). */
function nameAt(question: string, service: string): number {
  const words = service.toLowerCase().split(/[-_ .]+/).map(escape).join('[-_ .]?');
  const m = new RegExp(`(^|[^a-z0-9])${words}(e?s)?(?![a-z0-9])`).exec(question);
  return m ? m.index + m[1].length : -1;
}

export function parseQuestion(question: string, knownServices: string[]): QuestionIntent {
  const q = question.toLowerCase();
  // Longest names first, so "frontend-proxy" is not also read as "frontend".
  const found: { service: string; at: number; end: number }[] = [];
  for (const s of [...knownServices].sort((a, b) => b.length - a.length)) {
    const at = nameAt(q, s);
    if (at < 0) continue;
    if (found.some((f) => at >= f.at && at < f.end)) continue;
    found.push({ service: s, at, end: at + s.length });
  }
  return {
    services: found.sort((a, b) => a.at - b.at).map((f) => f.service),
    signals: SIGNALS.filter((s) => SIGNAL_WORDS[s].test(q)),
    percentiles: [...q.matchAll(/\bp(\d{2,3})\b/g)].map((m) => Number(m[1])).filter((p) => p > 0 && p < 1000),
    diagnosis: DIAGNOSIS.test(q),
  };
}

/** Two spellings of one question: case, spacing and closing punctuation aside. */
export function sameQuestion(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[?!.\s]+$/g, '').replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
