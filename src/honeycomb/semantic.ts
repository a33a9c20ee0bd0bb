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

const KNOWN_PREFIXES = [
  'trace.', 'span.', 'service.', 'http.', 'db.', 'k8s.', 'cloud.', 'system.', 'log.', 'net.', 'rpc.', 'messaging.', 'faas.',
  'process.', 'exception.', 'thread.', 'code.', 'enduser.', 'network.', 'url.', 'server.', 'client.', 'telemetry.', 'meta.',
];
const KNOWN_EXACT = new Set(['duration_ms', 'name', 'body', 'severity', 'severity_text', 'error']);
const known = (c: string) => KNOWN_PREFIXES.some((p) => c.startsWith(p)) || KNOWN_EXACT.has(c);

/** Columns outside the known conventions, in order, at most `max`. */
export function customColumns(columns: string[], max = 20): string[] {
  const out: string[] = [];
  for (const col of columns) {
    const c = col.toLowerCase();
    if (known(c)) continue;
    // A histogram column of a known column (duration_ms.p99) is no more custom than the column itself.
    const suffix = HISTOGRAM_SUFFIXES.find((s) => c.endsWith(s));
    if (suffix && known(c.slice(0, -suffix.length))) continue;
    out.push(col);
    if (out.length >= max) break;
  }
  return out;
}
