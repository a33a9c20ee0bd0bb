/**
 * What one user request does across the services, as a tree of calls with timings: the ground
 * truth from which both SDK and eBPF telemetry are then derived (instrument.ts), so the two sources
 * always agree the way real ones do.
 */
export type Protocol = 'http' | 'grpc' | 'sql' | 'cache' | 'kafka';

export interface Operation {
  protocol: Protocol;
  /** HTTP */
  method?: string;
  /** Route template in the SDK's spelling, e.g. /api/products/[productId] or /api/products/{id}. */
  route?: string;
  /** The same route as Beyla reports it, ID-like segments as `*`. */
  beylaRoute?: string;
  path?: string;
  /** gRPC */
  rpcService?: string;
  rpcMethod?: string;
  /** SQL / cache */
  dbSystem?: string;
  dbOperation?: string;
  dbTable?: string;
  statement?: string;
  /** Kafka */
  topic?: string;
}

export interface CallError {
  httpStatus?: number;
  grpcCode?: number;
  message: string;
  /** The service whose fault this is, for the faults whose callers name it (faults.ts). */
  origin?: string;
}

export interface CallNode {
  /** The calling service; null for the entry point (traffic from outside). */
  caller: string | null;
  /** The called service, or a peer that emits nothing itself (postgres, valkey, kafka). */
  callee: string;
  op: Operation;
  /** Milliseconds since the scenario's start. */
  startMs: number;
  endMs: number;
  /** Time the request waited before the callee processed it; eBPF sees it, the SDK does not. */
  queueMs: number;
  error?: CallError;
  /** The caller gave up first (its deadline): its client span ends here with this error, the server runs on. */
  clientEndMs?: number;
  clientError?: CallError;
  /** Response status for successful HTTP calls. */
  httpStatus?: number;
  attributes: Record<string, string | number | boolean>;
  children: CallNode[];
  /** Which instance of the callee served it (scenarios with a fleet). */
  instance?: number;
  /** The callee never received it (gone, or the caller's circuit breaker refused): only the caller's client span exists. */
  unsent?: boolean;
}

export const PEERS = new Set(['postgres', 'valkey', 'kafka']);

/** The call as its caller saw it: cut short at the caller's deadline when it gave up waiting. */
export function asSeenByCaller(node: CallNode): CallNode {
  if (node.clientEndMs === undefined) return node;
  return { ...node, endMs: node.clientEndMs, error: node.clientError ?? node.error };
}
