/**
 * The comparison decoder for the ingest bench: protobufjs, with decoders generated at load time from
 * the vendored opentelemetry-proto definitions (vendor/opentelemetry-proto), then converted into the
 * colony's model exactly as the hand decoder (src/colony/otlp/decode-proto.ts) produces it, so that
 * both figures cover the same work: bytes in, TracesRequest out.
 */
import { join } from 'node:path';
import protobuf from 'protobufjs';
import type { AttrValue, Attributes, OtlpSpan, TracesRequest } from '../src/colony/otlp/model.js';

type Long = protobuf.Long;

const PROTO_ROOT = join(import.meta.dirname, '..', 'vendor', 'opentelemetry-proto');

function loadRequestType(): protobuf.Type {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: true });
  return root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
}

export const exportTraceServiceRequest = loadRequestType();

interface PbAnyValue {
  value?: string;
  string_value?: string;
  bool_value?: boolean;
  int_value?: Long | number;
  double_value?: number;
  array_value?: { values: PbAnyValue[] };
  kvlist_value?: { values: PbKeyValue[] };
  bytes_value?: Uint8Array;
}
interface PbKeyValue {
  key: string;
  value?: PbAnyValue | null;
}
interface PbSpan {
  trace_id: Uint8Array;
  span_id: Uint8Array;
  trace_state: string;
  parent_span_id: Uint8Array;
  name: string;
  kind: number;
  start_time_unix_nano: Long | number;
  end_time_unix_nano: Long | number;
  attributes: PbKeyValue[];
  events: { time_unix_nano: Long | number; name: string; attributes: PbKeyValue[] }[];
  links: { trace_id: Uint8Array; span_id: Uint8Array; attributes: PbKeyValue[] }[];
  status?: { message: string; code: number } | null;
}
interface PbRequest {
  resource_spans: {
    resource?: { attributes: PbKeyValue[] } | null;
    scope_spans: { scope?: { name: string; version: string; attributes: PbKeyValue[] } | null; spans: PbSpan[] }[];
  }[];
}

function u64(v: Long | number): bigint {
  return typeof v === 'number' ? BigInt(v) : (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
}

function int64(v: Long | number): number | string {
  if (typeof v === 'number') return v;
  const n = (BigInt(v.high) << 32n) | BigInt(v.low >>> 0);
  return Number.isSafeInteger(Number(n)) ? Number(n) : n.toString();
}

/** As WireReader.hexId: '' when absent, null when the wrong length or all zero. */
function hexId(bytes: Uint8Array, expected: number): string | null {
  if (bytes.length === 0) return '';
  if (bytes.length !== expected || bytes.every((b) => b === 0)) return null;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}

function anyValue(v: PbAnyValue | null | undefined): AttrValue {
  switch (v?.value) {
    case 'string_value': return v.string_value as string;
    case 'bool_value': return v.bool_value as boolean;
    case 'int_value': return int64(v.int_value as Long | number);
    case 'double_value': return v.double_value as number;
    case 'array_value': return (v.array_value?.values ?? []).map(anyValue);
    case 'kvlist_value': return attributes(v.kvlist_value?.values ?? []);
    case 'bytes_value': return Buffer.from(v.bytes_value as Uint8Array).toString('base64');
    default: return null;
  }
}

function attributes(kvs: PbKeyValue[]): Attributes {
  const out: Attributes = {};
  for (const kv of kvs) out[kv.key] = anyValue(kv.value);
  return out;
}

function span(s: PbSpan): OtlpSpan {
  return {
    traceId: hexId(s.trace_id, 16),
    spanId: hexId(s.span_id, 8),
    parentSpanId: hexId(s.parent_span_id, 8),
    traceState: s.trace_state,
    name: s.name,
    kind: s.kind,
    startNs: u64(s.start_time_unix_nano),
    endNs: u64(s.end_time_unix_nano),
    attributes: attributes(s.attributes),
    events: s.events.map((e) => ({ timeNs: u64(e.time_unix_nano), name: e.name, attributes: attributes(e.attributes) })),
    links: s.links.map((l) => ({ traceId: hexId(l.trace_id, 16), spanId: hexId(l.span_id, 8), attributes: attributes(l.attributes) })),
    statusCode: s.status?.code ?? 0,
    statusMessage: s.status?.message ?? '',
  };
}

/** protobufjs's decode alone: its message objects, before any conversion. */
export function decodeMessagesProtobufjs(body: Buffer): PbRequest {
  return exportTraceServiceRequest.decode(body) as unknown as PbRequest;
}

export function decodeTracesProtobufjs(body: Buffer): TracesRequest {
  return decodeMessagesProtobufjs(body).resource_spans.map((rs) => ({
    resource: { attributes: attributes(rs.resource?.attributes ?? []) },
    scopes: rs.scope_spans.map((ss) => ({
      scope: { name: ss.scope?.name ?? '', version: ss.scope?.version ?? '', attributes: attributes(ss.scope?.attributes ?? []) },
      items: ss.spans.map(span),
    })),
  }));
}
