import { describe, expect, it } from 'vitest';
import { HOT_KEYS, hotAttributes } from '../../../src/colony/otlp/semconv.js';
import type { HotAttributes } from '../../../src/colony/store/rows.js';

/** Each promoted column and its attribute names, current first, from the semantic conventions (written out, not imported). */
const NAMES: [keyof HotAttributes, string[]][] = [
  ['httpMethod', ['http.request.method', 'http.method']],
  ['httpRoute', ['http.route', 'url.template']],
  ['httpStatusCode', ['http.response.status_code', 'http.status_code']],
  ['rpcSystem', ['rpc.system.name', 'rpc.system']],
  ['rpcService', ['rpc.service']],
  ['rpcMethod', ['rpc.method']],
  ['rpcStatusCode', ['rpc.grpc.status_code', 'rpc.response.status_code']],
  ['dbSystem', ['db.system.name', 'db.system']],
  ['dbOperation', ['db.operation.name', 'db.operation']],
  ['dbTable', ['db.collection.name', 'db.sql.table']],
  ['dbStatement', ['db.query.text', 'db.statement']],
  ['peerService', ['service.peer.name', 'peer.service']],
  ['serverAddress', ['server.address', 'net.peer.name']],
];
const NUMERIC = new Set<keyof HotAttributes>(['httpStatusCode', 'rpcStatusCode']);

describe('promoted attribute names', () => {
  it('lists exactly these columns and names', () => {
    expect(Object.entries(HOT_KEYS)).toEqual(NAMES);
  });

  it('feeds each column from each of its names alone, and no other column', () => {
    for (const [column, names] of NAMES) {
      for (const name of names) {
        const hot = hotAttributes({ [name]: NUMERIC.has(column) ? 7 : 'v' });
        for (const [other] of NAMES) expect(hot[other], `${name} -> ${other}`).toBe(other === column ? (NUMERIC.has(column) ? 7 : 'v') : null);
      }
    }
  });

  it('takes the current name over the legacy one for every column that has both, in either order', () => {
    for (const [column, names] of NAMES.filter(([, n]) => n.length === 2)) {
      const [current, legacy] = NUMERIC.has(column) ? [1, 2] : ['current', 'legacy'];
      expect(hotAttributes({ [names[1]]: legacy, [names[0]]: current })[column], column).toBe(current);
      expect(hotAttributes({ [names[0]]: current, [names[1]]: legacy })[column], column).toBe(current);
    }
  });

  it('writes non-string values of text columns as text', () => {
    expect(hotAttributes({ 'http.route': 5, 'server.address': true, 'db.system': 1.5 })).toMatchObject({ httpRoute: '5', serverAddress: 'true', dbSystem: '1.5' });
  });
});

describe('status codes', () => {
  it('reads an HTTP status from a number or an optionally negative string of digits only', () => {
    const http = (v: unknown) => hotAttributes({ 'http.response.status_code': v as string }).httpStatusCode;
    expect([http(503), http('503'), http('-1'), http(2.5), http('5x'), http('x5'), http('5.0'), http(true), http(' 1'), http([503]), http({})]).toEqual([503, 503, -1, 2.5, null, null, null, null, null, null, null]);
  });

  it('reads a gRPC status from a number, a string of digits, or a code name in any case', () => {
    const grpc = (v: unknown) => hotAttributes({ 'rpc.grpc.status_code': v as string }).rpcStatusCode;
    expect([grpc(0), grpc('16'), grpc('OK'), grpc('unauthenticated'), grpc('Not_Found'), grpc('BOGUS'), grpc('-1'), grpc('1x'), grpc('x1'), grpc(false), grpc([4])]).toEqual([0, 16, 0, 16, 5, null, null, null, null, null, null]);
  });
});

describe('rpc.method holding a path', () => {
  it('splits /package.Service/Method into service and method, keeping an explicit rpc.service', () => {
    expect(hotAttributes({ 'rpc.method': '/shop.Cart/Get' })).toMatchObject({ rpcService: 'shop.Cart', rpcMethod: 'Get' });
    expect(hotAttributes({ 'rpc.method': 'shop.Cart/Get', 'rpc.service': 'Given' })).toMatchObject({ rpcService: 'Given', rpcMethod: 'Get' });
    expect(hotAttributes({ 'rpc.method': 'Get' })).toMatchObject({ rpcService: null, rpcMethod: 'Get' });
  });
});
