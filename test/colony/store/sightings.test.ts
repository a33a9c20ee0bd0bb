import { describe, expect, it } from 'vitest';
import { type IngestBatch, type SpanRow, emptyBatch } from '../../../src/colony/store/rows.js';
import { serviceSightings } from '../../../src/colony/store/sightings.js';

const span = (serviceName: string, startNs: bigint, endNs: bigint, resourceAttributes: string, source: 'otlp' | 'ebpf' = 'otlp') => ({ serviceName, source, startNs, endNs, resourceAttributes }) as SpanRow;

describe('serviceSightings', () => {
  it('one sighting per service and source: earliest start, latest end, the last resource seen', () => {
    const b: IngestBatch = emptyBatch();
    b.spans.push(span('a', 50n, 60n, '{"v":1}'), span('a', 10n, 20n, '{"v":2}'), span('b', 5n, 6n, '{}'), span('a', 30n, 90n, '{"v":3}'), span('a', 1n, 2n, '{}', 'ebpf'));
    expect(serviceSightings(b)).toEqual([
      { service: 'a', source: 'otlp', first: 10n, last: 90n, resource: '{"v":3}' },
      { service: 'b', source: 'otlp', first: 5n, last: 6n, resource: '{}' },
      { service: 'a', source: 'ebpf', first: 1n, last: 2n, resource: '{}' },
    ]);
  });

  it('an event from a deploy tool (no telemetry SDK) does not sight its service', () => {
    const b: IngestBatch = emptyBatch();
    const log = { logId: 'x', timeNs: 7n, serviceName: 'deployed', source: 'otlp', resourceAttributes: '{"service.name":"deployed"}' };
    b.logs.push(log as IngestBatch['logs'][number]);
    b.events.push({ eventId: 'x', timeNs: 7n, serviceName: 'deployed', kind: 'deploy', title: 'v2', attributes: '{}' });
    expect(serviceSightings(b)).toEqual([]);
  });
});
