import { describe, expect, it } from 'vitest';
import type { RedRow } from '../../../src/colony/store/queries/red.js';
import { chooseSections } from '../../../src/colony/unified/red-merge.js';

function row(source: RedRow['source'], basis: RedRow['basis'], protocol: RedRow['protocol'] = 'http'): RedRow {
  return {
    source, basis, protocol, httpRoute: '/x', httpMethod: 'GET', rpcService: null, rpcMethod: null, dbSystem: null, dbOperation: null, dbTable: null,
    requests: basis === 'histogram' ? 100 : 40, errors: 0, errorRate: 0, p50Ms: 1, p95Ms: 2, p99Ms: 3, percentilesAtLeast: false,
  };
}

describe('chooseSections: the better basis per source', () => {
  const spans = [row('ebpf', 'spans'), row('otlp', 'spans')];
  const hist = [row('ebpf', 'histogram'), row('otlp', 'histogram')];

  it('prefers histograms for eBPF (every request) and spans for the SDK (exact percentiles) when both exist', () => {
    const s = chooseSections(['http'], spans, hist);
    expect(s.map((x) => [x.protocol, x.source, x.basis, x.rows.map((r) => r.basis)])).toEqual([
      ['http', 'ebpf', 'histogram', ['histogram']],
      ['http', 'otlp', 'spans', ['spans']],
    ]);
  });

  it('falls back to the other basis when the preferred one has no rows, and leaves out sources with neither', () => {
    const s = chooseSections(['http', 'grpc'], [row('ebpf', 'spans')], [row('otlp', 'histogram')]);
    expect(s.map((x) => [x.protocol, x.source, x.basis])).toEqual([
      ['http', 'ebpf', 'spans'],
      ['http', 'otlp', 'histogram'],
    ]);
  });

  it('keeps each protocol to its own rows', () => {
    const s = chooseSections(['grpc', 'http'], [row('otlp', 'spans', 'http'), row('otlp', 'spans', 'grpc')], []);
    expect(s.map((x) => [x.protocol, x.rows.map((r) => r.protocol)])).toEqual([['grpc', ['grpc']], ['http', ['http']]]);
  });
});
