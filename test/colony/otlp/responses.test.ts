import { describe, expect, it } from 'vitest';
import { exportResponse, statusBody } from '../../../src/colony/otlp/responses.js';

describe('export responses', () => {
  it('JSON: empty on full success, else partialSuccess with the signal\'s rejected field as a string', () => {
    expect(exportResponse('traces', 'json', 0, 'ignored').toString()).toBe('{}');
    expect(JSON.parse(exportResponse('traces', 'json', 2, 'two bad').toString())).toEqual({ partialSuccess: { rejectedSpans: '2', errorMessage: 'two bad' } });
    expect(JSON.parse(exportResponse('metrics', 'json', 1, 'm').toString())).toEqual({ partialSuccess: { rejectedDataPoints: '1', errorMessage: 'm' } });
    expect(JSON.parse(exportResponse('logs', 'json', 300, 'l').toString())).toEqual({ partialSuccess: { rejectedLogRecords: '300', errorMessage: 'l' } });
  });

  it('protobuf: empty on full success, else partial_success { rejected = 1; error_message = 2 }', () => {
    expect([...exportResponse('logs', 'protobuf', 0, 'ignored')]).toEqual([]);
    expect([...exportResponse('traces', 'protobuf', 300, 'ab')]).toEqual([0x0a, 7, 0x08, 0xac, 0x02, 0x12, 2, 0x61, 0x62]);
    expect([...exportResponse('metrics', 'protobuf', 1, '')]).toEqual([0x0a, 2, 0x08, 1]);
  });
});

describe('google.rpc.Status bodies', () => {
  it('JSON with code, message and empty details; protobuf with code = 1 and message = 2', () => {
    expect(JSON.parse(statusBody('json', 3, 'bad').toString())).toEqual({ code: 3, message: 'bad', details: [] });
    expect([...statusBody('protobuf', 14, 'x')]).toEqual([0x08, 14, 0x12, 1, 0x78]);
    expect([...statusBody('protobuf', 0, '')]).toEqual([]);
  });
});
