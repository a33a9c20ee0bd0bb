import { describe, expect, it } from 'vitest';
import { MAX_INT64, int32Problem, timeProblem } from '../../../src/colony/otlp/bounds.js';
import { classifySource } from '../../../src/colony/otlp/classify.js';
import { INVALID_TIME } from '../../../src/colony/otlp/decode-json.js';

describe('eBPF or SDK', () => {
  it('is eBPF for each Beyla / OBI resource marker, and only for its exact value', () => {
    expect(classifySource({ 'telemetry.sdk.name': 'beyla' }, '')).toBe('ebpf');
    expect(classifySource({ 'telemetry.distro.name': 'opentelemetry-ebpf-instrumentation' }, '')).toBe('ebpf');
    expect(classifySource({ 'telemetry.sdk.name': 'opentelemetry' }, '')).toBe('otlp');
    expect(classifySource({ 'telemetry.distro.name': 'beyla' }, '')).toBe('otlp');
    // OBI on its own (not vendored by Beyla) names itself as the SDK.
    expect(classifySource({ 'telemetry.sdk.name': 'opentelemetry-ebpf-instrumentation' }, '')).toBe('ebpf');
    expect(classifySource({ 'telemetry.sdk.name': 'opentelemetry-ebpf-instrumentation-ish' }, '')).toBe('otlp');
  });

  it('is eBPF for each eBPF instrumentation scope, named by the scope or by a resource attribute', () => {
    for (const scope of ['github.com/grafana/beyla', 'go.opentelemetry.io/obi', 'github.com/open-telemetry/opentelemetry-ebpf-instrumentation']) {
      expect(classifySource({}, scope), scope).toBe('ebpf');
      expect(classifySource({ 'otel.scope.name': scope }, 'x'), scope).toBe('ebpf');
      expect(classifySource({ 'otel.library.name': scope }, 'x'), scope).toBe('ebpf');
    }
    expect(classifySource({ 'otel.scope.name': 'github.com/grafana/beyla-ish' }, '')).toBe('otlp');
    expect(classifySource({ 'otel.scope.name': 5 }, '@opentelemetry/instrumentation-http')).toBe('otlp');
  });

  it('never decides by telemetry.sdk.language, which Beyla copies from the application', () => {
    expect(classifySource({ 'telemetry.sdk.language': 'go', 'service.name': 'cart' }, 'go.opentelemetry.io/otel')).toBe('otlp');
  });
});

describe('values the store can hold', () => {
  it('accepts nanoseconds up to 2^63 - 1 and names the field of anything else', () => {
    expect(MAX_INT64).toBe(9223372036854775807n);
    expect(timeProblem('time_unix_nano', 0n)).toBeNull();
    expect(timeProblem('time_unix_nano', MAX_INT64)).toBeNull();
    expect(timeProblem('time_unix_nano', MAX_INT64 + 1n)).toBe('time_unix_nano out of range (expected nanoseconds below 2^63)');
    expect(timeProblem('start_time_unix_nano', INVALID_TIME)).toBe('a malformed start_time_unix_nano (expected unsigned integer nanoseconds)');
  });

  it('accepts integers in the int32 range, and null, and refuses fractions, NaN, infinities and anything beyond', () => {
    for (const ok of [null, 0, -1, 2 ** 31 - 1, -(2 ** 31)]) expect(int32Problem('code', ok), String(ok)).toBeNull();
    for (const bad of [2 ** 31, -(2 ** 31) - 1, 2.5, NaN, Infinity, -Infinity, 1e12]) {
      expect(int32Problem('code', bad), String(bad)).toBe('an invalid code (expected an integer in the int32 range)');
    }
  });
});
