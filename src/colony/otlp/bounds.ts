import { INVALID_TIME } from './decode-json.js';

/**
 * Value bounds the store's columns impose (BIGINT nanoseconds, INTEGER codes). An item outside them
 * is rejected alone, with a reason naming the field, before it can reach the database: one bad value
 * must never fail the request, let alone the other senders' rows in the same group commit.
 */
export const MAX_INT64 = (1n << 63n) - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Why a timestamp cannot be stored, or null. `field` is the OTLP field name. */
export function timeProblem(field: string, ns: bigint): string | null {
  if (ns === INVALID_TIME) return `a malformed ${field} (expected unsigned integer nanoseconds)`;
  if (ns > MAX_INT64) return `${field} out of range (expected nanoseconds below 2^63)`;
  return null;
}

/** Why a value bound for an INTEGER column cannot be stored (NaN, Infinity, 2.5, beyond int32), or null. */
export function int32Problem(field: string, v: number | null): string | null {
  if (v === null || (Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX)) return null;
  return `an invalid ${field} (expected an integer in the int32 range)`;
}
