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
  const v = first(attrs, ['rpc.grpc.status_code', 'rpc.response.status_code']);
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

function readHotAttributes(attrs: Attributes): HotAttributes {
  return {
    httpMethod: text(attrs, 'http.request.method', 'http.method'),
    httpRoute: text(attrs, 'http.route', 'url.template'),
    httpStatusCode: integer(attrs, 'http.response.status_code', 'http.status_code'),
    rpcSystem: text(attrs, 'rpc.system.name', 'rpc.system'),
    rpcService: text(attrs, 'rpc.service'),
    rpcMethod: text(attrs, 'rpc.method'),
    rpcStatusCode: grpcCode(attrs),
    dbSystem: text(attrs, 'db.system.name', 'db.system'),
    dbOperation: text(attrs, 'db.operation.name', 'db.operation'),
    dbTable: text(attrs, 'db.collection.name', 'db.sql.table'),
    dbStatement: text(attrs, 'db.query.text', 'db.statement'),
    peerService: text(attrs, 'service.peer.name', 'peer.service'),
    serverAddress: text(attrs, 'server.address', 'net.peer.name'),
  };
}
