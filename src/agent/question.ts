/**
 * The signals a question asks about and the percentiles it names, as far as a program without a model
 * can tell, and whether two spellings are one question (the replay routing). Pure. The services a
 * question names are read by understand/entities.ts, the answer's shape by understand/kinds.ts.
 */
export const SIGNALS = ['latency', 'errors', 'traffic', 'traces', 'change'] as const;
export type Signal = (typeof SIGNALS)[number];

const SIGNAL_WORDS: Record<Signal, RegExp> = {
  latency: /\b(latenc\w*|slow\w*|p\d{2,3}|percentiles?|response times?|durations?|how (long|fast)|fast(er)?|timeouts?|timing)\b/,
  errors: /\b(errors?|fail\w*|5\d\d|4\d\d|exceptions?|broken|crash\w*|status codes?|error rates?)\b/,
  traffic: /\b(traffic|throughput|rps|qps|request rates?|requests? per \w+|volume|load|how many requests)\b/,
  traces: /\b(traces?|spans?)\b/,
  change: /\b(what changed|changes?|changed|deploy\w*|roll(ed)?[ -]?out|releases?|config\w*|flags?)\b/,
};

export function questionSignals(question: string): { signals: Signal[]; percentiles: number[] } {
  const q = question.toLowerCase();
  return {
    signals: SIGNALS.filter((s) => SIGNAL_WORDS[s].test(q)),
    percentiles: [...q.matchAll(/\bp(\d{2,3})\b/g)].map((m) => Number(m[1])).filter((p) => p > 0 && p < 1000),
  };
}

/** Two spellings of one question: case, spacing and closing punctuation aside. */
export function sameQuestion(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[?!.\s]+$/g, '').replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
