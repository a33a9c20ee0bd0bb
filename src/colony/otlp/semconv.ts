import type { Attributes, AttrValue } from './model.js';
import type { HotAttributes } from '../store/rows.js';
import { splitRpcPath } from '../../core/rpc.js';
import { GRPC_CODE_NAMES } from '../../core/grpc.js';

/**
 * Old and new semantic-convention names both occur in real data (SDKs of different ages, Beyla
 * before and after 3.23). Promoted columns take the current name first, then the legacy one.
 */
function first(attrs: Attributes, keys: readonly string[]): AttrValue | undefined {
  for (const k of keys) {
    const v = attrs[k];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

function text(attrs: Attributes, ...keys: string[]): string | null {
  const v = first(attrs, keys);
  return v === undefined ? null : String(v);
}

function integer(attrs: Attributes, ...keys: string[]): number | null {
  const v = first(attrs, keys);
  // Returned as sent (2.5, NaN, 1e12 included): normalize rejects what an INTEGER column cannot hold.
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

function grpcCode(attrs: Attributes): number | null {
  const v = first(attrs, HOT_KEYS.rpcStatusCode);
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return Number(v);
    const i = (GRPC_CODE_NAMES as readonly string[]).indexOf(v.toUpperCase());
    return i < 0 ? null : i;
  }
  return null;
}

export function hotAttributes(attrs: Attributes): HotAttributes {
  const hot = readHotAttributes(attrs);
  if (hot.rpcMethod !== null && hot.rpcMethod.includes('/')) {
    const { service, method } = splitRpcPath(hot.rpcMethod);
    hot.rpcMethod = method;
    hot.rpcService = hot.rpcService ?? service;
  }
  return hot;
}

/** Where each promoted column comes from, current name first (a second backend reads the same keys). */
export const HOT_KEYS = {
  httpMethod: ['http.request.method', 'http.method'],
  httpRoute: ['http.route', 'url.template'],
  httpStatusCode: ['http.response.status_code', 'http.status_code'],
  rpcSystem: ['rpc.system.name', 'rpc.system'],
  rpcService: ['rpc.service'],
  rpcMethod: ['rpc.method'],
  rpcStatusCode: ['rpc.grpc.status_code', 'rpc.response.status_code'],
  dbSystem: ['db.system.name', 'db.system'],
  dbOperation: ['db.operation.name', 'db.operation'],
  dbTable: ['db.collection.name', 'db.sql.table'],
  dbStatement: ['db.query.text', 'db.statement'],
  peerService: ['service.peer.name', 'peer.service'],
  serverAddress: ['server.address', 'net.peer.name'],
} as const satisfies Record<keyof HotAttributes, readonly string[]>;

function readHotAttributes(attrs: Attributes): HotAttributes {
  const k = HOT_KEYS;
  return {
    httpMethod: text(attrs, ...k.httpMethod),
    httpRoute: text(attrs, ...k.httpRoute),
    httpStatusCode: integer(attrs, ...k.httpStatusCode),
    rpcSystem: text(attrs, ...k.rpcSystem),
    rpcService: text(attrs, ...k.rpcService),
    rpcMethod: text(attrs, ...k.rpcMethod),
    rpcStatusCode: grpcCode(attrs),
    dbSystem: text(attrs, ...k.dbSystem),
    dbOperation: text(attrs, ...k.dbOperation),
    dbTable: text(attrs, ...k.dbTable),
    dbStatement: text(attrs, ...k.dbStatement),
    peerService: text(attrs, ...k.peerService),
    serverAddress: text(attrs, ...k.serverAddress),
  };
}
