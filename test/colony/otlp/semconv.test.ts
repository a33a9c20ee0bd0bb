import { describe, expect, it } from 'vitest';
import { HOT_KEYS, hotAttributes, spanHotAttributes } from '../../../src/colony/otlp/semconv.js';

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

describe('spanHotAttributes: a span\'s promoted columns, as both colonies derive them', () => {
  it('splits the raw path of a gRPC span named by it when rpc.method is missing (Beyla), keeping a sent rpc.service', () => {
    expect(spanHotAttributes({ 'rpc.system': 'grpc' }, '/shop.Cart/GetCart')).toMatchObject({ rpcService: 'shop.Cart', rpcMethod: 'GetCart' });
    expect(spanHotAttributes({ 'rpc.system': 'grpc', 'rpc.service': 'Cart' }, '/shop.Cart/GetCart')).toMatchObject({ rpcService: 'Cart', rpcMethod: 'GetCart' });
  });

  it('leaves the name alone when rpc.method is sent, the system is not gRPC, or the name is no path', () => {
    expect(spanHotAttributes({ 'rpc.system': 'grpc', 'rpc.method': 'Get' }, '/shop.Cart/GetCart')).toMatchObject({ rpcService: null, rpcMethod: 'Get' });
    expect(spanHotAttributes({ 'rpc.system': 'thrift' }, '/shop.Cart/GetCart')).toMatchObject({ rpcMethod: null });
    expect(spanHotAttributes({ 'rpc.system': 'grpc' }, 'GetCart')).toMatchObject({ rpcMethod: null });
  });

  it('reads the string-valued maps the ClickHouse exporter stores as the typed attributes DuckDB receives', () => {
    const typed = spanHotAttributes({ 'http.response.status_code': 503, 'rpc.grpc.status_code': 14, 'http.request.method': 'GET' }, 'GET /');
    const strings = spanHotAttributes({ 'http.response.status_code': '503', 'rpc.grpc.status_code': '14', 'http.request.method': 'GET' }, 'GET /');
    expect(strings).toEqual(typed);
  });
});
