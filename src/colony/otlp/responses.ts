import type { Signal } from './model.js';
import { WireWriter } from './wire.js';

export type Encoding = 'json' | 'protobuf';

const REJECTED_FIELD: Record<Signal, string> = {
  traces: 'rejectedSpans',
  metrics: 'rejectedDataPoints',
  logs: 'rejectedLogRecords',
};

/** Export*ServiceResponse, with partial_success only when something was rejected. */
export function exportResponse(signal: Signal, encoding: Encoding, rejected: number, errorMessage: string): Buffer {
  if (encoding === 'json') {
    const body = rejected === 0 ? {} : { partialSuccess: { [REJECTED_FIELD[signal]]: String(rejected), errorMessage } };
    return Buffer.from(JSON.stringify(body));
  }
  const out = new WireWriter();
  if (rejected > 0) out.message(1, new WireWriter().uint(1, rejected).string(2, errorMessage));
  return out.finish();
}

/** google.rpc.Status codes used here. */
export const RPC_INVALID_ARGUMENT = 3;
export const RPC_NOT_FOUND = 5;
export const RPC_PERMISSION_DENIED = 7;
export const RPC_RESOURCE_EXHAUSTED = 8;
export const RPC_UNIMPLEMENTED = 12;
export const RPC_INTERNAL = 13;
export const RPC_UNAVAILABLE = 14;
export const RPC_UNAUTHENTICATED = 16;

/** A google.rpc.Status body, the OTLP error payload. */
export function statusBody(encoding: Encoding, code: number, message: string): Buffer {
  if (encoding === 'json') return Buffer.from(JSON.stringify({ code, message, details: [] }));
  return new WireWriter().uint(1, code).string(2, message).finish();
}
