import { z } from 'zod';
import { type TimeRange, parseDuration } from '../../core/time.js';
import { PROTOCOLS, STATUS_CLASSES } from '../store/queries/red.js';
import { EVENT_KINDS, LOG_LEVELS } from '../store/rows.js';
import { ToolInputError, type ToolContext } from './types.js';

/** Shared input fields, each with a description the LLM reads and an error that lists what is accepted. */
const MAX_NAME = 512;

export const serviceName = z
  .string({ error: 'service must be a service name, e.g. "checkout"' })
  .min(1, { error: 'service must not be empty' })
  .max(MAX_NAME, { error: `service must be at most ${MAX_NAME} characters` })
  .describe('Service name as in service.name, e.g. "checkout"');

/** A window longer than this is a typo (300000w would not even fit in int64 nanoseconds). */
export const MAX_TIME_RANGE = '365d';
const MAX_TIME_RANGE_NS = parseDuration(MAX_TIME_RANGE);

function rangeInBounds(v: string): boolean {
  try {
    const ns = parseDuration(v);
    return ns > 0n && ns <= MAX_TIME_RANGE_NS;
  } catch {
    return true; // the regex above reports the malformed ones
  }
}

export const timeRange = z
  .string()
  .regex(/^\d+(\.\d+)?(ms|s|m|h|d|w)$/, { error: 'time_range must be a duration like 90s, 30m, 1h, 24h, 7d or 2w' })
  .refine(rangeInBounds, { error: `time_range must be more than 0 and at most ${MAX_TIME_RANGE}, e.g. 30m, 24h, 7d` })
  .describe(`How far back from now: 90s, 30m, 1h, 24h, 7d, 2w (at most ${MAX_TIME_RANGE})`);

/** RFD 067 filter enumerations; matched case-insensitively, as the queries compare upper case. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'] as const;
export const SQL_OPERATIONS = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'UPSERT', 'MERGE', 'REPLACE', 'CREATE', 'ALTER', 'DROP', 'TRUNCATE', 'BEGIN', 'COMMIT', 'ROLLBACK', 'CALL', 'EXECUTE'] as const;

function oneOf(field: string, values: readonly string[]) {
  return z
    .string()
    .refine((v) => values.includes(v.toUpperCase()), { error: `${field} must be one of: ${values.join(', ')}` })
    .describe(`${field}: one of ${values.join(', ')}`);
}

export const httpMethod = oneOf('http_method', HTTP_METHODS);
export const sqlOperation = oneOf('sql_operation', SQL_OPERATIONS);

/** Longest span duration a filter may ask for: 30 days, in milliseconds. */
export const MAX_MIN_DURATION_MS = 30 * 86_400_000;

export const traceIdField = z
  .string()
  .regex(/^[0-9a-fA-F]{32}$/, { error: 'trace_id must be 32 hexadecimal characters' })
  .describe('A trace id (32 hex characters)');

export const text = (what: string) => z.string().max(MAX_NAME, { error: `${what} must be at most ${MAX_NAME} characters` });

export const protocol = z.enum(['auto', ...PROTOCOLS], { error: 'protocol must be one of: auto, http, grpc, sql' });
export const statusCodeRange = z.enum(STATUS_CLASSES.filter((c) => c !== '1xx') as ['2xx', '3xx', '4xx', '5xx'], {
  error: 'status_code_range must be one of: 2xx, 3xx, 4xx, 5xx',
});
export const grpcStatusCode = z
  .number({ error: 'grpc_status_code must be a number from 0 (OK) to 16 (UNAUTHENTICATED)' })
  .int()
  .min(0, { error: 'grpc_status_code must be from 0 to 16' })
  .max(16, { error: 'grpc_status_code must be from 0 to 16' });
export const logLevel = z.enum(LOG_LEVELS as [string, ...string[]], { error: `level must be one of: ${LOG_LEVELS.join(', ')}` });
export const eventKind = z.enum(EVENT_KINDS as [string, ...string[]], { error: `kind must be one of: ${EVENT_KINDS.join(', ')}` });

export function limit(def: number, max: number, what = 'limit') {
  return z
    .number({ error: `${what} must be a whole number from 1 to ${max}` })
    .int({ error: `${what} must be a whole number from 1 to ${max}` })
    .min(1, { error: `${what} must be at least 1` })
    .max(max, { error: `${what} must be at most ${max}` })
    .default(def);
}

/** The window `[now - time_range, now]`. */
export function windowOf(ctx: ToolContext, range: string): TimeRange {
  let span: bigint;
  try {
    span = parseDuration(range);
  } catch {
    throw new ToolInputError(`time_range "${range}" is not a duration; use 90s, 30m, 1h, 24h, 7d or 2w`);
  }
  const toNs = ctx.now();
  return { fromNs: toNs - span, toNs };
}
