import { nsToMs, parseDuration } from '../../src/core/time.js';
import type { TraceJson, TraceNodeJson } from '../state/types.js';
import { spanText } from './search.js';

/**
 * The trace list's `/` filter (pure): `service:cart status:error dur>500ms http.route:/api/cart`
 * and free words. Every term must hold; a span term (service, operation, attribute, word) holds
 * when some span of the trace has it. A term that does not parse (`dur>fast`) is matched as a word.
 */
export type FilterTerm =
  | { kind: 'service' | 'operation'; text: string }
  | { kind: 'status'; error: boolean }
  | { kind: 'duration'; op: '>' | '>=' | '<' | '<='; ms: number }
  | { kind: 'attribute'; key: string; text: string }
  | { kind: 'word'; text: string };

const FIELD = /^([\w.-]+):(.+)$/;
const DURATION = /^(?:dur|duration)(>=|<=|>|<)(.+)$/;

function term(raw: string): FilterTerm {
  const word: FilterTerm = { kind: 'word', text: raw.toLowerCase() };
  const d = DURATION.exec(raw);
  if (d) {
    try {
      // A bare number is milliseconds, as the rest of the console writes durations.
      return { kind: 'duration', op: d[1] as '>' | '>=' | '<' | '<=', ms: nsToMs(parseDuration(/^\d+(\.\d+)?$/.test(d[2]) ? `${d[2]}ms` : d[2])) };
    } catch {
      return word;
    }
  }
  const f = FIELD.exec(raw);
  if (!f) return word;
  const [key, text] = [f[1].toLowerCase(), f[2].toLowerCase()];
  if (key === 'service' || key === 'svc') return { kind: 'service', text };
  if (key === 'op' || key === 'operation' || key === 'name') return { kind: 'operation', text };
  if (key === 'status' && (text === 'error' || text === 'ok')) return { kind: 'status', error: text === 'error' };
  return { kind: 'attribute', key, text };
}

const parsed = new Map<string, FilterTerm[]>();

export function parseFilter(filter: string): FilterTerm[] {
  let terms = parsed.get(filter);
  if (!terms) {
    terms = filter.trim().split(/\s+/).filter(Boolean).map(term);
    // One filter is typed a key at a time: keep the last few, not every prefix ever typed.
    if (parsed.size > 64) parsed.clear();
    parsed.set(filter, terms);
  }
  return terms;
}

const valueText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase();

function spanHas(n: TraceNodeJson, t: FilterTerm): boolean {
  switch (t.kind) {
    case 'service':
      return n.service.toLowerCase().includes(t.text);
    case 'operation':
      return n.name.toLowerCase().includes(t.text);
    case 'attribute':
      return Object.entries(n.attributes).some(([k, v]) => k.toLowerCase() === t.key && valueText(v).includes(t.text));
    case 'word':
      return spanText(n).includes(t.text);
    default:
      return false;
  }
}

function someSpan(roots: TraceNodeJson[], pred: (n: TraceNodeJson) => boolean): boolean {
  const stack = [...roots];
  while (stack.length) {
    const n = stack.pop() as TraceNodeJson;
    if (pred(n)) return true;
    stack.push(...n.children);
  }
  return false;
}

const holds = (op: string, a: number, b: number) => (op === '>' ? a > b : op === '>=' ? a >= b : op === '<' ? a < b : a <= b);

/**
 * Whether a trace passes every term; `errors` is its error span count. A free word matches a span's
 * `/` search text (search.ts), or the trace id.
 */
export function filterMatches(t: TraceJson, terms: readonly FilterTerm[], errors: number): boolean {
  return terms.every((term) => {
    if (term.kind === 'status') return (errors > 0) === term.error;
    if (term.kind === 'duration') return holds(term.op, t.durationMs, term.ms);
    if (term.kind === 'word' && t.traceId.toLowerCase().includes(term.text)) return true;
    return someSpan(t.roots, (n) => spanHas(n, term));
  });
}
