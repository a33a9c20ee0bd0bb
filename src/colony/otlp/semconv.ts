import type { Attributes, AttrValue } from './model.js';
import type { HotAttributes } from '../store/rows.js';
import { splitRpcPath } from '../../core/rpc.js';
import { GRPC_CODE_NAMES } from '../../core/grpc.js';

/**
 * Old and new semantic-convention names both occur in real data (SDKs of different ages, Beyla
 * before and after 3.23). Promoted columns take the current name first, then the legacy one.
 */
function integer(v: AttrValue | undefined): number | null {
  // Returned as sent (2.5, NaN, 1e12 included): normalize rejects what an INTEGER column cannot hold.
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

function grpcCode(v: AttrValue | undefined): number | null {
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

/**
 * A span's promoted columns (what the DuckDB colony stores and the ClickHouse colony's trace detail
 * reads): its attributes', and for a gRPC span named by its raw path without rpc.method (Beyla), the path's.
 */
export function spanHotAttributes(attrs: Attributes, spanName: string): HotAttributes {
  const hot = hotAttributes(attrs);
  if (hot.rpcMethod === null && hot.rpcSystem === 'grpc' && spanName.startsWith('/')) {
    const { service, method } = splitRpcPath(spanName);
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

const HOT_COLUMNS = Object.keys(HOT_KEYS) as (keyof HotAttributes)[];
const column = (name: keyof HotAttributes) => HOT_COLUMNS.indexOf(name);

/** Each promoted key: the index of the column it feeds and its rank among that column's names (0 = current). */
const HOT_KEY_SLOTS = new Map<string, { column: number; rank: number }>(
  HOT_COLUMNS.flatMap((name) => HOT_KEYS[name].map((key, rank) => [key, { column: column(name), rank }] as const)),
);

/** Per column, the value chosen so far and its rank; reused by every call (ingest is synchronous). */
const found: (AttrValue | undefined)[] = HOT_COLUMNS.map(() => undefined);
const foundRank: number[] = HOT_COLUMNS.map(() => 0);

/**
 * One pass over the span's own keys (a handful) rather than a lookup of all 25 promoted names in
 * each span's attributes; per column the lowest-ranked non-empty value wins, the current name first.
 */
function promotedValues(attrs: Attributes): void {
  found.fill(undefined);
  for (const key in attrs) {
    const slot = HOT_KEY_SLOTS.get(key);
    if (slot === undefined) continue;
    const v = attrs[key];
    if (v === undefined || v === null || v === '') continue;
    if (found[slot.column] !== undefined && foundRank[slot.column] < slot.rank) continue;
    found[slot.column] = v;
    foundRank[slot.column] = slot.rank;
  }
}

const text = (c: number): string | null => {
  const v = found[c];
  return v === undefined ? null : String(v);
};

const HTTP_METHOD = column('httpMethod');
const HTTP_ROUTE = column('httpRoute');
const HTTP_STATUS_CODE = column('httpStatusCode');
const RPC_SYSTEM = column('rpcSystem');
const RPC_SERVICE = column('rpcService');
const RPC_METHOD = column('rpcMethod');
const RPC_STATUS_CODE = column('rpcStatusCode');
const DB_SYSTEM = column('dbSystem');
const DB_OPERATION = column('dbOperation');
const DB_TABLE = column('dbTable');
const DB_STATEMENT = column('dbStatement');
const PEER_SERVICE = column('peerService');
const SERVER_ADDRESS = column('serverAddress');

function readHotAttributes(attrs: Attributes): HotAttributes {
  promotedValues(attrs);
  return {
    httpMethod: text(HTTP_METHOD),
    httpRoute: text(HTTP_ROUTE),
    httpStatusCode: integer(found[HTTP_STATUS_CODE]),
    rpcSystem: text(RPC_SYSTEM),
    rpcService: text(RPC_SERVICE),
    rpcMethod: text(RPC_METHOD),
    rpcStatusCode: grpcCode(found[RPC_STATUS_CODE]),
    dbSystem: text(DB_SYSTEM),
    dbOperation: text(DB_OPERATION),
    dbTable: text(DB_TABLE),
    dbStatement: text(DB_STATEMENT),
    peerService: text(PEER_SERVICE),
    serverAddress: text(SERVER_ADDRESS),
  };
}
