import { describe, expect, it } from 'vitest';
import { HOT_KEYS, hotAttributes } from '../../../src/colony/otlp/semconv.js';

describe('hotAttributes: which name feeds a promoted column', () => {
  it('takes the current name over the legacy one, whichever comes first in the span', () => {
    for (const attrs of [
      { 'http.method': 'GET', 'http.request.method': 'POST', 'net.peer.name': 'old', 'server.address': 'new' },
      { 'http.request.method': 'POST', 'http.method': 'GET', 'server.address': 'new', 'net.peer.name': 'old' },
    ]) {
      expect(hotAttributes(attrs)).toMatchObject({ httpMethod: 'POST', serverAddress: 'new' });
    }
  });

  it('falls back to the legacy name when the current one is empty or null', () => {
    expect(hotAttributes({ 'http.request.method': '', 'http.method': 'GET', 'db.system.name': null, 'db.system': 'mysql' })).toMatchObject({ httpMethod: 'GET', dbSystem: 'mysql' });
  });

  it('leaves a column NULL when none of its names is set, and does not carry values over from the previous span', () => {
    const first = hotAttributes({ 'http.route': '/a', 'rpc.grpc.status_code': 14, 'db.statement': 'SELECT 1' });
    expect(first).toMatchObject({ httpRoute: '/a', rpcStatusCode: 14, dbStatement: 'SELECT 1' });
    const next = hotAttributes({ 'other.key': 'x' });
    for (const column of Object.keys(HOT_KEYS)) expect(next[column as keyof typeof HOT_KEYS]).toBeNull();
  });

  it('reads status codes sent as numbers, digit strings and gRPC code names', () => {
    expect(hotAttributes({ 'http.status_code': '503', 'rpc.grpc.status_code': '4' })).toMatchObject({ httpStatusCode: 503, rpcStatusCode: 4 });
    expect(hotAttributes({ 'http.response.status_code': 'teapot', 'rpc.response.status_code': 'unavailable' })).toMatchObject({ httpStatusCode: null, rpcStatusCode: 14 });
  });
});
