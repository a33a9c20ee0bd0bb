import { z } from 'zod';
import { ISO_HINT, type Nanos, type TimeRange, formatSpan, formatWindow, nsToIso, parseDuration, parseIso8601 } from '../../core/time.js';
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

/**
 * A window longer than this is a typo (300000w would not even fit in int64 nanoseconds); ten years
 * reaches any OTLP data (the protocol is younger), so `--since` can go back to the oldest recording.
 */
export const MAX_TIME_RANGE = '3650d';
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
  .describe(`How far back from now: 90s, 30m, 1h, 24h, 7d, 2w (at most ${MAX_TIME_RANGE}); with end alone, how far back from end`);

function instant(field: 'start' | 'end', what: string) {
  return z
    .string({ error: `${field} must be a string in ${ISO_HINT}` })
    .max(64, { error: `${field} must be at most 64 characters, in ${ISO_HINT}` })
    .refine((v) => parseIso8601(v) !== undefined, { error: (iss) => `${field} "${String(iss.input)}" is not a time; use ${ISO_HINT}` })
    .optional()
    .describe(`${what} (${ISO_HINT}). start and end together give a fixed window and time_range is ignored; start alone runs to now; end alone goes time_range back from end`);
}

/** The absolute window beside time_range; every tool that takes time_range takes these (resolved by windowOf). */
export const windowFields = {
  start: instant('start', 'Window start, inclusive'),
  end: instant('end', 'Window end, exclusive'),
};

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

/** An attribute's name as OpenTelemetry spells them (k8s.pod.name, http.route, service.version): letters, digits and . _ - / : only. */
const ATTRIBUTE_KEY = /^[A-Za-z0-9_.\-/:]+$/;
const attributeKeyHint = 'an attribute name such as k8s.pod.name, service.version or http.route (letters, digits and . _ - / :)';

/** An attribute by name: a span's (or point's, record's) own, else its resource's; service.name is the service. */
export const attributeKey = (field: string) => z
  .string({ error: `${field} must be ${attributeKeyHint}` })
  .min(1, { error: `${field} must be ${attributeKeyHint}` })
  .max(256, { error: `${field} must be at most 256 characters` })
  .regex(ATTRIBUTE_KEY, { error: `${field} must be ${attributeKeyHint}` });

/** At most this many attribute conditions at once. */
export const MAX_ATTRIBUTE_FILTERS = 8;

/** Exact attribute values every counted span (point, record) must have, e.g. {"k8s.pod.name": "payment-5c2e", "service.version": "2.1.0"}. */
export const attributeFilter = z
  .record(attributeKey('an attributes key'), text('an attribute value'), { error: 'attributes must be an object of attribute names and values, e.g. {"k8s.pod.name": "payment-5c2e"}' })
  .refine((r) => Object.keys(r).length <= MAX_ATTRIBUTE_FILTERS, { error: `attributes takes at most ${MAX_ATTRIBUTE_FILTERS} names` })
  .describe('Only what carries these attribute values exactly (its own attribute, else its resource\'s), e.g. {"k8s.pod.name": "payment-5c2e"}; service.name is the service');

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

/** A tool's window, resolved, with the words its answer uses for it. */
export interface ToolWindow extends TimeRange {
  /** true when start or end was given: the window is fixed, not counted back from now. */
  absolute: boolean;
  /** For headings: "last 30m", or "13:05-13:35 UTC (30 min)" for an absolute window. */
  label: string;
  /** After "in": "the last 30m", or the absolute label. */
  phrase: string;
  /** Its length as the answer names it: "30m" as given, or "30 min" for an absolute window. */
  length: string;
}

/** The structured-output form of a window (every windowed tool includes it as `window`). */
export const windowOutput = z.object({ start: z.string(), end: z.string(), label: z.string(), absolute: z.boolean() });
export const windowJson = (w: ToolWindow) => ({ start: nsToIso(w.fromNs), end: nsToIso(w.toNs), label: w.label, absolute: w.absolute });
/** A heading's window: an absolute label as it is, "last 30m" with the instants it stood for. */
export const windowHeading = (w: ToolWindow) => (w.absolute ? w.label : `${w.label} (${nsToIso(w.fromNs)} .. ${nsToIso(w.toNs)})`);

/**
 * The one place a tool's window is resolved: time_range back from now, or the absolute window that
 * start/end name (start alone runs to now; end alone goes time_range back from end). An absolute
 * window must end after it starts and meet the colony's data; anything else is a ToolInputError
 * saying what was wrong and what is accepted.
 */
export async function windowOf(ctx: ToolContext, a: { time_range: string; start?: string; end?: string }): Promise<ToolWindow> {
  const span = durationOf(a.time_range);
  const now = ctx.now();
  if (a.start === undefined && a.end === undefined) {
    return { fromNs: now - span, toNs: now, absolute: false, label: `last ${a.time_range}`, phrase: `the last ${a.time_range}`, length: a.time_range };
  }
  const toNs = a.end === undefined ? now : instantOf('end', a.end);
  const fromNs = a.start === undefined ? toNs - span : instantOf('start', a.start);
  if (toNs <= fromNs) {
    throw new ToolInputError(a.end === undefined
      ? `start ${a.start} is not before now (${nsToIso(now)}); give an earlier start, or an end after it`
      : `end ${a.end} must be after start ${a.start ?? `(end - time_range = ${nsToIso(fromNs)})`}`);
  }
  const range = { fromNs, toNs };
  await refuseOutsideData(ctx, range, now);
  const label = formatWindow(range, now);
  return { ...range, absolute: true, label, phrase: label, length: formatSpan(toNs - fromNs) };
}

function durationOf(range: string): Nanos {
  try {
    return parseDuration(range);
  } catch {
    throw new ToolInputError(`time_range "${range}" is not a duration; use 90s, 30m, 1h, 24h, 7d or 2w`);
  }
}

function instantOf(field: 'start' | 'end', text: string): Nanos {
  const ns = parseIso8601(text);
  if (ns === undefined) throw new ToolInputError(`${field} "${text}" is not a time; use ${ISO_HINT}`);
  return ns;
}

/** A fixed window with no data in reach is a wrong date, not an empty answer: say where the data is. */
async function refuseOutsideData(ctx: ToolContext, range: TimeRange, now: Nanos): Promise<void> {
  const services = await ctx.store.listServices();
  if (services.length === 0) return;
  const first = services.reduce((m, s) => (s.firstSeenNs < m ? s.firstSeenNs : m), services[0].firstSeenNs);
  const last = services.reduce((m, s) => (s.lastSeenNs > m ? s.lastSeenNs : m), services[0].lastSeenNs);
  if (range.toNs > first && range.fromNs <= last) return;
  throw new ToolInputError(
    `the window ${formatWindow(range, now)} is ${range.toNs <= first ? 'before' : 'after'} the colony's data, which spans ${nsToIso(first)} .. ${nsToIso(last)}; ` +
      'give start/end within it, or time_range back from now',
  );
}
