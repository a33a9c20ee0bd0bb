/**
 * How many items an export holds, counted before it is decoded, and the cap on them. Memory follows
 * items, not bytes: a minimal span is ~51 bytes of protobuf and ~600 bytes of columnar batch, with
 * its decoded objects and normalised row on top, so one 19 MiB export of 380k spans cost 650 MB-1 GB
 * of RSS although the body limit (20 MiB) and the in-flight budget held (both count bytes).
 */
import { countJsonItems } from './json-items.js';
import { METRIC, METRIC_BODY, REQUEST, RESOURCE_GROUP, SCOPE_GROUP, SPAN } from './decode-proto.js';
import type { Signal } from './model.js';
import type { Encoding } from './responses.js';
import { WireReader } from './wire.js';

/**
 * Items one export may hold (`--max-export-items`). The Collector's batch processor sends 8,192
 * (send_batch_size) and the SDKs 512 (maxExportBatchSize): eight of the Collector's batches fit, so
 * no ordinary sender meets the cap, while one export at it costs ~300 MB of RSS at most (measured
 * with minimal spans, the worst case per byte) instead of the ~1 GB a body-sized one could.
 */
export const DEFAULT_MAX_EXPORT_ITEMS = 65_536;

/** Largest --max-export-items accepted: 256 times the default, far past any batch a sender makes. */
export const MAX_EXPORT_ITEMS_LIMIT = 16_777_216;

/**
 * What a count covers: every object the decoder makes per entry. Spans count with their events
 * and links (each its own decoded object and its own JSON in the span's row: an empty event is two
 * bytes on the wire); a resource, scope or metric holding none of those counts as one, since it is
 * decoded all the same (ten million empty scopes fit in 20 MiB).
 */
const ITEMS_COUNTED = 'spans with their events and links, log records, metric data points';

/**
 * Items in an export body; throws OtlpDecodeError for a body whose envelope (resources, scopes,
 * items, and for traces and metrics one level in) cannot be read. Anything deeper is left to the
 * decoder, which reads it anyway. An upper bound where a sender repeats a field the decoder reads
 * once (a metric with both a gauge and a sum, a JSON key given twice): those are decoded, then dropped.
 */
export function countExportItems(signal: Signal, encoding: Encoding, body: Buffer): number {
  return encoding === 'json' ? countJsonItems(signal, body) : countProtoItems(signal, body);
}

/** The refusal's words, for HTTP 413 and gRPC RESOURCE_EXHAUSTED alike. */
export function tooManyItemsMessage(items: number, limit: number): string {
  return `this export holds ${items.toLocaleString('en-US')} items (${ITEMS_COUNTED}), more than the ${limit.toLocaleString('en-US')} the colony takes in one export;`
    + ' send smaller batches (the Collector\'s batch processor: send_batch_max_size; SDKs: maxExportBatchSize), or start the colony with --max-export-items N';
}

/**
 * Protobuf: a walk over the length-delimited envelope, reading tags and lengths and skipping
 * everything else (no string, id or attribute is read). Wire types are checked as the decoder
 * checks them, so a malformed envelope fails here with the decoder's words.
 */
function countProtoItems(signal: Signal, body: Buffer): number {
  const r = new WireReader(body);
  const item = signal === 'traces' ? spanItems : signal === 'metrics' ? metricItems : oneItem;
  let n = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(REQUEST, tag >>> 3, tag & 7);
    if (tag >>> 3 === 1) n += r.message(resourceItems, item);
    else r.skip(tag & 7);
  }
  return n;
}

type ItemCount = (r: WireReader) => number;

function resourceItems(r: WireReader, item: ItemCount): number {
  let n = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(RESOURCE_GROUP, tag >>> 3, tag & 7);
    if (tag >>> 3 === 2) n += r.message(scopeItems, item);
    else r.skip(tag & 7);
  }
  return Math.max(n, 1);
}

function scopeItems(r: WireReader, item: ItemCount): number {
  let n = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(SCOPE_GROUP, tag >>> 3, tag & 7);
    if (tag >>> 3 === 2) n += r.message(item, undefined);
    else r.skip(tag & 7);
  }
  return Math.max(n, 1);
}

/** A log record: one item, skipped whole. */
function oneItem(r: WireReader): number {
  r.pos = r.end;
  return 1;
}

/**
 * A span, its events (field 11) and its links (field 13). Its other fields go unchecked (the
 * decoder checks every one; here they ran this walk at twice the cost), these two are.
 */
function spanItems(r: WireReader): number {
  let n = 1;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    if (field === 11 || field === 13) {
      r.check(SPAN, field, tag & 7);
      n++;
    }
    r.skip(tag & 7);
  }
  return n;
}

/** A metric's data points, in whichever of gauge (5), sum (7), histogram (9), exponential histogram (10), summary (11) it has. */
function metricItems(r: WireReader): number {
  let n = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    r.check(METRIC, field, tag & 7);
    if (field === 5 || field === 7 || field === 9 || field === 10 || field === 11) n += r.message(pointItems, undefined);
    else r.skip(tag & 7);
  }
  return Math.max(n, 1);
}

function pointItems(r: WireReader): number {
  let n = 0;
  while (r.pos < r.end) {
    const tag = r.tag();
    r.check(METRIC_BODY, tag >>> 3, tag & 7);
    if (tag >>> 3 === 1) n++;
    r.skip(tag & 7);
  }
  return n;
}
