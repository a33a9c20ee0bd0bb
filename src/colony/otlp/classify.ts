import type { Attributes } from './model.js';
import type { Source } from '../store/rows.js';

/**
 * eBPF (Grafana Beyla / OpenTelemetry eBPF Instrumentation) or SDK. Never by
 * `telemetry.sdk.language`: Beyla copies the instrumented application's language into it.
 */
export const EBPF_SCOPES = new Set([
  'github.com/grafana/beyla',
  'go.opentelemetry.io/obi',
  'github.com/open-telemetry/opentelemetry-ebpf-instrumentation',
]);

/**
 * Resource attributes whose value marks eBPF telemetry. OBI standing alone names itself as the SDK
 * (`telemetry.sdk.name=opentelemetry-ebpf-instrumentation`, e.g. on its service-graph metrics);
 * Beyla, which vendors OBI, sends `telemetry.sdk.name=beyla` with OBI as the distro.
 */
export const EBPF_RESOURCE_MARKERS: readonly (readonly [string, string])[] = [
  ['telemetry.sdk.name', 'beyla'],
  ['telemetry.sdk.name', 'opentelemetry-ebpf-instrumentation'],
  ['telemetry.distro.name', 'opentelemetry-ebpf-instrumentation'],
];
/** Resource attributes that may carry an instrumentation scope name (older exporters put it there). */
export const SCOPE_RESOURCE_KEYS = ['otel.scope.name', 'otel.library.name'] as const;

export function classifySource(resource: Attributes, scopeName: string): Source {
  for (const [key, value] of EBPF_RESOURCE_MARKERS) if (resource[key] === value) return 'ebpf';
  for (const key of SCOPE_RESOURCE_KEYS) {
    const v = resource[key];
    if (typeof v === 'string' && EBPF_SCOPES.has(v)) return 'ebpf';
  }
  return EBPF_SCOPES.has(scopeName) ? 'ebpf' : 'otlp';
}
