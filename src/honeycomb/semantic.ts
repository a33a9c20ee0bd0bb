/**
 * OpenTelemetry semantic-convention groups present in a dataset's columns, and the columns that
 * are none of them (what tells datasets apart). The specification's eight groups, plus the four it
 * left open: rpc, messaging, faas, net.
 */
export interface SemanticGroups {
  has_otel_traces: boolean;
  has_http: boolean;
  has_db: boolean;
  has_k8s: boolean;
  has_cloud: boolean;
  has_system_metrics: boolean;
  has_histograms: boolean;
  has_logs: boolean;
  has_rpc: boolean;
  has_messaging: boolean;
  has_faas: boolean;
  has_net: boolean;
}

const HISTOGRAM_SUFFIXES = ['.max', '.min', '.count', '.sum', '.avg', '.p50', '.p90', '.p95', '.p99'];

/** Pattern kinds as the specification defines them: "x." prefix, ".x" suffix, otherwise exact. */
const PATTERNS: Record<keyof SemanticGroups, string[]> = {
  has_otel_traces: ['trace.trace_id', 'trace.span_id', 'trace.parent_id', 'span.kind', 'span.name', 'span.status', 'service.name', 'service.version', 'duration_ms', 'name'],
  has_http: ['http.'],
  has_db: ['db.'],
  has_k8s: ['k8s.'],
  has_cloud: ['cloud.'],
  has_system_metrics: ['system.'],
  has_histograms: HISTOGRAM_SUFFIXES,
  has_logs: ['body', 'severity', 'severity_text', 'log.'],
  has_rpc: ['rpc.'],
  has_messaging: ['messaging.'],
  has_faas: ['faas.'],
  has_net: ['net.', 'network.'],
};

function matches(col: string, pattern: string): boolean {
  if (pattern.endsWith('.')) return col.startsWith(pattern);
  if (pattern.startsWith('.')) return col.endsWith(pattern);
  return col === pattern;
}

export function detectSemanticGroups(columns: string[]): SemanticGroups {
  const cols = columns.map((c) => c.toLowerCase());
  const out = {} as SemanticGroups;
  for (const [group, patterns] of Object.entries(PATTERNS) as [keyof SemanticGroups, string[]][]) {
    out[group] = cols.some((c) => patterns.some((p) => matches(c, p)));
  }
  return out;
}

/** The specification's known conventions, exactly: custom_columns leaves out what they match. */
const SPEC_PREFIXES = [
  'trace.', 'span.', 'service.', 'http.', 'db.', 'k8s.', 'cloud.', 'system.', 'log.', 'net.', 'rpc.', 'messaging.', 'faas.',
  'process.', 'exception.', 'thread.', 'code.', 'enduser.',
];
const SPEC_EXACT = new Set(['duration_ms', 'name', 'body', 'severity', 'severity_text']);
const specKnown = (c: string, prefixes: readonly string[], exact: ReadonlySet<string>) => prefixes.some((p) => c.startsWith(p)) || exact.has(c);

/**
 * Columns outside the known conventions, in order, at most `max`: the specification's
 * extract_custom_columns to the letter. Its histogram rule (skip `x.p99` when the base `x` starts
 * with a known prefix) never skips more than the prefix rule already did, so `duration_ms.p99` is
 * custom there.
 */
export function customColumns(columns: string[], max = 20): string[] {
  return columns.filter((col) => !specKnown(col.toLowerCase(), SPEC_PREFIXES, SPEC_EXACT)).slice(0, max);
}

/**
 * Coral's further grouping (a field of its own, `app_columns`): the custom columns less newer
 * OpenTelemetry namespaces the specification's list predates (network., url., server., client.,
 * telemetry.), Honeycomb's own (meta., error) and histogram subfields of any known column
 * (duration_ms.p99): what is left is the application's own attributes, which tell datasets apart.
 */
const MORE_PREFIXES = [...SPEC_PREFIXES, 'network.', 'url.', 'server.', 'client.', 'telemetry.', 'meta.'];
const MORE_EXACT = new Set([...SPEC_EXACT, 'error']);
const moreKnown = (c: string) => specKnown(c, MORE_PREFIXES, MORE_EXACT);

export function appColumns(columns: string[], max = 20): string[] {
  const out: string[] = [];
  for (const col of columns) {
    const c = col.toLowerCase();
    if (moreKnown(c)) continue;
    const suffix = HISTOGRAM_SUFFIXES.find((s) => c.endsWith(s));
    if (suffix && moreKnown(c.slice(0, -suffix.length))) continue;
    out.push(col);
    if (out.length >= max) break;
  }
  return out;
}
