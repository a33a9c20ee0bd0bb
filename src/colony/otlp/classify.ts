import type { Attributes } from './model.js';
import type { Source } from '../store/rows.js';

/**
 * eBPF (Grafana Beyla / OpenTelemetry eBPF Instrumentation) or SDK. Never by
 * `telemetry.sdk.language`: Beyla copies the instrumented application's language into it.
 */
const EBPF_SCOPES = new Set([
  'github.com/grafana/beyla',
  'go.opentelemetry.io/obi',
  'github.com/open-telemetry/opentelemetry-ebpf-instrumentation',
]);

export function classifySource(resource: Attributes, scopeName: string): Source {
  if (resource['telemetry.sdk.name'] === 'beyla') return 'ebpf';
  if (resource['telemetry.distro.name'] === 'opentelemetry-ebpf-instrumentation') return 'ebpf';
  for (const key of ['otel.scope.name', 'otel.library.name']) {
    const v = resource[key];
    if (typeof v === 'string' && EBPF_SCOPES.has(v)) return 'ebpf';
  }
  return EBPF_SCOPES.has(scopeName) ? 'ebpf' : 'otlp';
}
