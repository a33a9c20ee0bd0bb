import { describe, expect, it } from 'vitest';
import { PLUMBING_TOOLS, PORCELAIN_TOOLS } from '../../../src/colony/tools/index.js';

/**
 * RFD 067 names the source eBPF, not after one agent: Grafana Beyla and OpenTelemetry eBPF
 * Instrumentation (OBI) both feed it. A listed tool's description may name Beyla only beside OBI.
 */
describe('tool descriptions name the source eBPF', () => {
  it.each([...PORCELAIN_TOOLS, ...PLUMBING_TOOLS].map((t) => [t.name, t.description] as const))('%s', (_name, description) => {
    if (/Beyla/.test(description)) expect(description).toMatch(/OpenTelemetry eBPF Instrumentation/);
    expect(description).not.toMatch(/Beyla histograms|eBPF \(Beyla\)/);
  });
});
