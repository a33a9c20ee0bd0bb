import type { CallNode, Operation } from './calls.js';
import { GRPC_CODE_NAMES, GRPC_SERVER_ERROR_CODES } from '../core/grpc.js';
import { PEERS, asSeenByCaller } from './calls.js';
import { type KeyValue, attributes, nanos } from './otlp-json.js';
import type { Random } from '../core/random.js';
import { type ServiceDef, hasEbpf, hasSdk, service } from './world.js';

/**
 * Turns call trees into what real instrumentation would send: SDK spans (rich attributes, scope
 * names per language) and Beyla eBPF spans (Beyla naming, empty scope, queue time included), with
 * W3C context propagation deciding parents, plus error logs and metric observations.
 */
export type Source = 'sdk' | 'ebpf';

export interface SpanOut {
  service: ServiceDef;
  /** The instance that sent it (scenarios with a fleet). */
  instance?: number;
  source: Source;
  scope: string;
  endMs: number;
  span: Record<string, unknown>;
}

export interface Observation {
  service: ServiceDef;
  instance?: number;
  source: Source;
  metric: 'http.server.request.duration' | 'http.server.duration' | 'rpc.server.duration' | 'rpc.server.call.duration' | 'db.client.operation.duration';
  attributes: Record<string, string | number>;
  /** Seconds, or milliseconds for the legacy http.server.duration. */
  value: number;
  atMs: number;
}

export interface LogOut {
  service: ServiceDef;
  instance?: number;
  atMs: number;
  severity: 'INFO' | 'WARN' | 'ERROR';
  body: string;
  traceId: string;
  spanId: string;
  attributes: Record<string, string | number | boolean>;
}

/** How one service's instrumentation departs from the world's defaults, in one scenario. */
export interface InstrumentationOverride {
  /** The SDK's head sampler keeps this share of the requests the service serves (its spans only). */
  sdkSampleRate?: number;
  /** Beyla exports metrics only for this service: no eBPF spans. */
  ebpfSpans?: boolean;
}

export interface TelemetrySink {
  span(s: SpanOut): void;
  observe(o: Observation): void;
  log(l: LogOut): void;
}

const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

const SDK_SCOPES: Record<string, Partial<Record<Operation['protocol'], string>>> = {
  nodejs: { http: '@opentelemetry/instrumentation-http', grpc: '@opentelemetry/instrumentation-grpc' },
  go: { http: 'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp', grpc: 'go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc', sql: 'github.com/XSAM/otelsql', kafka: 'github.com/IBM/sarama/otelsarama' },
  java: { grpc: 'io.opentelemetry.grpc-1.6' },
  dotnet: { grpc: 'OpenTelemetry.Instrumentation.GrpcNetClient', cache: 'OpenTelemetry.Instrumentation.StackExchangeRedis', sql: 'Npgsql', kafka: 'OpenTelemetry.Instrumentation.ConfluentKafka' },
  python: { grpc: 'opentelemetry.instrumentation.grpc' },
  rust: { http: 'opentelemetry-http' },
  kotlin: { kafka: 'io.opentelemetry.kafka-clients-2.6' },
  cpp: { http: 'envoy' },
};

export function sdkScope(svc: ServiceDef, op: Operation): string {
  return SDK_SCOPES[svc.language]?.[op.protocol] ?? `${svc.name}-instrumentation`;
}


/** Beyla >= 3.23 renamed the RPC attributes; currency runs the newer Beyla. */
const NEW_BEYLA = new Set(['currency']);
const newBeyla = (svc: ServiceDef) => svc.newBeyla === true || NEW_BEYLA.has(svc.name);

function httpStatus(node: CallNode): number {
  return node.error?.httpStatus ?? node.httpStatus ?? 200;
}

function grpcCode(node: CallNode): number {
  return node.error?.grpcCode ?? 0;
}

/** Whether the callee's own server span counts the call as its failure (a 4xx or INVALID_ARGUMENT is the caller's). */
function serverFailed(node: CallNode): boolean {
  return node.op.protocol === 'grpc' ? GRPC_SERVER_ERROR_CODES.includes(grpcCode(node)) : httpStatus(node) >= 500;
}

function status(error: boolean, message = ''): Record<string, unknown> {
  return error ? { code: 2, ...(message ? { message } : {}) } : {};
}

/** Info logs real services write on success, keyed by "service method-or-route". */
const SUCCESS_LOGS: Record<string, (n: CallNode) => string> = {
  'checkout PlaceOrder': (n) => `order placed: ${n.attributes['app.order.id'] ?? ''}`,
  'payment Charge': (n) => `Transaction complete. amount=${n.attributes['app.payment.amount'] ?? ''} USD`,
};

export interface ServerIds {
  /** The instance of the service these spans belong to. */
  instance?: number;
  sdk?: string;
  ebpf?: string;
  traceId: string;
  ebpfTraceId: string;
}

export interface Published {
  traceId: string;
  spanId: string;
  atMs: number;
  orderId: string;
}

export class Instrumenter {
  /** Messages published to Kafka, consumed afterwards in their own traces (generate.ts). */
  readonly published: Published[] = [];

  constructor(
    private readonly rng: Random,
    private readonly baseNs: bigint,
    private readonly sink: TelemetrySink,
    private readonly overrides: Readonly<Record<string, InstrumentationOverride>> = {},
    /** Sampling decisions draw from their own stream, so scenarios without sampling stay as they were. */
    private readonly sampler: Random | null = null,
    /** The world's services by name: the shop's, or a random topology's. */
    private readonly lookup: (name: string) => ServiceDef = service,
  ) {}

  private sdkRecords(svc: ServiceDef): boolean {
    const rate = this.overrides[svc.name]?.sdkSampleRate;
    return hasSdk(svc) && (rate === undefined || this.sampler === null || this.sampler.chance(rate));
  }

  /** Emits a whole request; returns the trace id the SDK root span carries. */
  request(root: CallNode): string {
    const ids = this.server(root, null);
    return ids.traceId;
  }

  private span(svc: ServiceDef, instance: number | undefined, source: Source, scope: string, s: {
    traceId: string; spanId: string; parentSpanId: string; name: string; kind: number; startMs: number; endMs: number;
    attrs: Record<string, string | number | boolean | string[] | undefined>; status: Record<string, unknown>; links?: unknown[];
  }): void {
    this.sink.span({
      service: svc,
      instance,
      source,
      scope,
      endMs: s.endMs,
      span: {
        traceId: s.traceId,
        spanId: s.spanId,
        ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
        name: s.name,
        kind: s.kind,
        startTimeUnixNano: nanos(this.baseNs, s.startMs),
        endTimeUnixNano: nanos(this.baseNs, s.endMs),
        attributes: attributes(s.attrs) as KeyValue[],
        ...(s.links ? { links: s.links } : {}),
        status: s.status,
      },
    });
  }

  /** The callee side of a call: SDK and/or eBPF server spans, then its own outgoing calls. */
  private server(node: CallNode, wire: { traceId: string; parentSpanId: string } | null): ServerIds {
    const svc = this.lookup(node.callee);
    const traceId = wire?.traceId ?? this.rng.hex(16);
    const instance = node.instance;
    const ids: ServerIds = { instance, traceId, ebpfTraceId: traceId };
    const op = node.op;
    const processStart = node.startMs + node.queueMs;
    if (this.sdkRecords(svc)) {
      ids.sdk = this.rng.hex(8);
      const s = this.sdkServerSpan(svc, node);
      this.span(svc, instance, 'sdk', sdkScope(svc, op), { ...s, traceId, spanId: ids.sdk, parentSpanId: wire?.parentSpanId ?? '', kind: KIND.SERVER, startMs: processStart, endMs: node.endMs });
      if (node.error) {
        const severity = serverFailed(node) ? 'ERROR' : 'WARN';
        this.sink.log({ service: svc, instance, atMs: node.endMs, severity, body: node.error.message, traceId, spanId: ids.sdk, attributes: { 'exception.type': 'Error', 'exception.message': node.error.message } });
      } else {
        const success = SUCCESS_LOGS[`${svc.name} ${op.rpcMethod ?? op.route}`];
        if (success) this.sink.log({ service: svc, instance, atMs: node.endMs, severity: 'INFO', body: success(node), traceId, spanId: ids.sdk, attributes: {} });
      }
      if (svc.name === 'frontend') {
        // The frontend's older SDK also records the legacy millisecond histogram.
        this.sink.observe({ service: svc, instance, source: 'sdk', metric: 'http.server.duration', attributes: { 'http.method': op.method ?? 'GET', 'http.route': op.route ?? '/', 'http.status_code': httpStatus(node) }, value: node.endMs - processStart, atMs: node.endMs });
      }
    }
    if (hasEbpf(svc) && this.overrides[svc.name]?.ebpfSpans === false) this.observeServer(svc, node);
    else if (hasEbpf(svc)) {
      ids.ebpf = this.rng.hex(8);
      // Without context propagation through this hop, Beyla starts a new trace.
      if (svc.losesContext) ids.ebpfTraceId = this.rng.hex(16);
      const s = this.ebpfServerSpan(svc, node);
      this.span(svc, instance, 'ebpf', '', {
        ...s,
        traceId: ids.ebpfTraceId,
        spanId: ids.ebpf,
        parentSpanId: svc.losesContext ? '' : (wire?.parentSpanId ?? ''),
        kind: KIND.SERVER,
        startMs: node.startMs,
        endMs: node.endMs + 0.05,
      });
      this.observeServer(svc, node);
    }
    for (const child of node.children) this.client(svc, ids, child);
    return ids;
  }

  /** The caller side: SDK and/or eBPF client spans, then the callee's server side with the propagated context. */
  private client(caller: ServiceDef, ids: ServerIds, node: CallNode): void {
    const op = node.op;
    const seen = asSeenByCaller(node);
    let sdkClient: string | undefined;
    let ebpfClient: string | undefined;
    if (ids.sdk) {
      sdkClient = this.rng.hex(8);
      const s = this.sdkClientSpan(caller, seen);
      this.span(caller, ids.instance, 'sdk', sdkScope(caller, op), { ...s, traceId: ids.traceId, spanId: sdkClient, parentSpanId: ids.sdk, startMs: node.startMs, endMs: seen.endMs });
      if (op.protocol === 'kafka' && node.attributes['app.order.id']) {
        this.published.push({ traceId: ids.traceId, spanId: sdkClient, atMs: node.endMs, orderId: String(node.attributes['app.order.id']) });
      }
    }
    // A call never sent (no connection) leaves Beyla nothing to see.
    if (ids.ebpf && !node.unsent && op.protocol !== 'kafka' && op.protocol !== 'cache') {
      ebpfClient = this.rng.hex(8);
      const s = this.ebpfClientSpan(caller, seen);
      this.span(caller, ids.instance, 'ebpf', '', { ...s, traceId: ids.ebpfTraceId, spanId: ebpfClient, parentSpanId: ids.ebpf, kind: KIND.CLIENT, startMs: node.startMs - 0.02, endMs: seen.endMs + 0.02 });
      if (op.protocol === 'sql') this.observeSql(caller, ids.instance, node);
    }
    if (PEERS.has(node.callee) || node.unsent) return;
    const wire = sdkClient
      ? { traceId: ids.traceId, parentSpanId: sdkClient }
      : ebpfClient && !caller.losesContext
        ? { traceId: ids.ebpfTraceId, parentSpanId: ebpfClient }
        : null;
    this.server(node, wire);
  }

  /** A Kafka consumer span: a new trace linked to the producer span. */
  consumer(svc: ServiceDef, msg: Published, startMs: number, endMs: number, children: (ids: ServerIds) => void, instance?: number): void {
    const traceId = this.rng.hex(16);
    const spanId = this.rng.hex(8);
    this.span(svc, instance, 'sdk', sdkScope(svc, { protocol: 'kafka' }), {
      traceId, spanId, parentSpanId: '', name: 'orders process', kind: KIND.CONSUMER, startMs, endMs,
      attrs: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders', 'messaging.operation.type': 'process', 'messaging.consumer.group.name': svc.name, 'app.order.id': msg.orderId },
      status: {},
      links: [{ traceId: msg.traceId, spanId: msg.spanId }],
    });
    children({ instance, sdk: spanId, traceId, ebpfTraceId: traceId });
  }

  /** Lets consumers make client calls (accounting's INSERT) under their consumer span. */
  consumerCall(svc: ServiceDef, ids: ServerIds, node: CallNode): void {
    this.client(svc, ids, node);
  }

  private sdkServerSpan(svc: ServiceDef, node: CallNode) {
    const op = node.op;
    if (op.protocol === 'grpc') {
      const code = grpcCode(node);
      return {
        name: `${op.rpcService}/${op.rpcMethod}`,
        attrs: { 'rpc.system': 'grpc', 'rpc.service': op.rpcService, 'rpc.method': op.rpcMethod, 'rpc.grpc.status_code': code, ...node.attributes },
        status: status(serverFailed(node), node.error?.message),
      };
    }
    const code = httpStatus(node);
    if (svc.name === 'frontend-proxy') {
      // Envoy's tracer: operation-named spans and the older attribute names.
      return {
        name: 'ingress',
        attrs: { 'http.method': op.method, 'http.url': `http://frontend-proxy:8080${op.path ?? '/'}`, 'http.status_code': code, 'upstream_cluster': node.children[0]?.callee ?? 'frontend', 'component': 'proxy' },
        status: status(code >= 500),
      };
    }
    const attrs = svc.legacyNames
      ? { 'http.method': op.method, 'http.route': op.route, 'http.target': op.path, 'http.status_code': code }
      : { 'http.request.method': op.method, 'http.route': op.route, 'url.path': op.path, 'http.response.status_code': code };
    return { name: `${op.method} ${op.route}`, attrs: { ...attrs, ...node.attributes }, status: status(code >= 500, node.error?.message) };
  }

  private sdkClientSpan(caller: ServiceDef, node: CallNode) {
    const op = node.op;
    const failed = node.error !== undefined;
    switch (op.protocol) {
      case 'grpc':
        return {
          name: `${op.rpcService}/${op.rpcMethod}`,
          kind: KIND.CLIENT,
          attrs: { 'rpc.system': 'grpc', 'rpc.service': op.rpcService, 'rpc.method': op.rpcMethod, 'rpc.grpc.status_code': grpcCode(node), 'server.address': node.callee, ...(caller.legacyNames ? { 'peer.service': node.callee } : { 'service.peer.name': node.callee }) },
          status: status(failed, node.error?.message),
        };
      case 'http': {
        const code = httpStatus(node);
        return {
          name: op.method ?? 'GET',
          kind: KIND.CLIENT,
          attrs: caller.legacyNames
            ? { 'http.method': op.method, 'http.url': `http://${node.callee}:8080${op.path}`, 'http.status_code': code, 'peer.service': node.callee }
            : { 'http.request.method': op.method, 'url.full': `http://${node.callee}:8080${op.path}`, 'http.response.status_code': code, 'server.address': node.callee },
          status: status(code >= 400),
        };
      }
      case 'sql':
        return {
          name: `${op.dbOperation} ${op.dbTable}`,
          kind: KIND.CLIENT,
          attrs: caller.legacyNames
            ? { 'db.system': 'postgresql', 'db.operation': op.dbOperation, 'db.sql.table': op.dbTable, 'db.statement': op.statement, 'net.peer.name': 'postgresql' }
            : { 'db.system.name': 'postgresql', 'db.operation.name': op.dbOperation, 'db.collection.name': op.dbTable, 'db.query.text': op.statement, 'server.address': 'postgresql' },
          status: status(failed),
        };
      case 'cache':
        return {
          name: op.dbOperation ?? 'GET',
          kind: KIND.CLIENT,
          attrs: { 'db.system': 'redis', 'db.operation': op.dbOperation, 'db.statement': `${op.dbOperation} cart`, 'server.address': 'valkey-cart', 'peer.service': 'valkey' },
          status: status(failed),
        };
      case 'kafka':
        return {
          name: 'orders publish',
          kind: KIND.PRODUCER,
          attrs: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders', 'messaging.operation.type': 'publish', 'messaging.operation': 'publish', 'server.address': 'kafka', 'peer.service': 'kafka', ...node.attributes },
          status: {},
        };
    }
  }

  private ebpfServerSpan(svc: ServiceDef, node: CallNode) {
    const op = node.op;
    if (op.protocol === 'grpc') {
      const code = grpcCode(node);
      const path = `/${op.rpcService}/${op.rpcMethod}`;
      const attrs = newBeyla(svc)
        ? { 'rpc.system.name': 'grpc', 'rpc.method': path, 'rpc.response.status_code': GRPC_CODE_NAMES[code] }
        : { 'rpc.system': 'grpc', 'rpc.method': path, 'rpc.grpc.status_code': code };
      return { name: path, attrs: { ...attrs, 'server.port': 8080 }, status: status(GRPC_SERVER_ERROR_CODES.includes(code)) };
    }
    const code = httpStatus(node);
    return {
      name: `${op.method} ${op.beylaRoute}`,
      attrs: { 'http.request.method': op.method, 'http.route': op.beylaRoute, 'url.path': op.path, 'http.response.status_code': code, 'server.port': 8080 },
      status: status(code >= 500),
    };
  }

  private ebpfClientSpan(caller: ServiceDef, node: CallNode) {
    const op = node.op;
    if (op.protocol === 'grpc') {
      const code = grpcCode(node);
      const path = `/${op.rpcService}/${op.rpcMethod}`;
      return { name: path, attrs: { 'rpc.system': 'grpc', 'rpc.method': path, 'rpc.grpc.status_code': code, 'server.address': node.callee }, status: status(code !== 0) };
    }
    if (op.protocol === 'sql') {
      return {
        name: `${op.dbOperation} ${op.dbTable}`,
        attrs: { 'db.system.name': 'postgresql', 'db.operation.name': op.dbOperation, 'db.collection.name': op.dbTable, 'db.query.text': op.statement, 'server.address': 'postgresql' },
        status: status(node.error !== undefined),
      };
    }
    const code = httpStatus(node);
    return { name: op.method ?? 'GET', attrs: { 'http.request.method': op.method, 'url.full': `http://${node.callee}:8080${op.path}`, 'http.response.status_code': code, 'server.address': node.callee }, status: status(code >= 400) };
  }

  private observeServer(svc: ServiceDef, node: CallNode): void {
    const op = node.op;
    const seconds = (node.endMs + 0.05 - node.startMs) / 1000;
    const instance = node.instance;
    if (op.protocol === 'grpc') {
      const path = `/${op.rpcService}/${op.rpcMethod}`;
      const code = grpcCode(node);
      this.sink.observe(newBeyla(svc)
        ? { service: svc, instance, source: 'ebpf', metric: 'rpc.server.call.duration', attributes: { 'rpc.system.name': 'grpc', 'rpc.method': path, 'rpc.response.status_code': GRPC_CODE_NAMES[code] }, value: seconds, atMs: node.endMs }
        : { service: svc, instance, source: 'ebpf', metric: 'rpc.server.duration', attributes: { 'rpc.system': 'grpc', 'rpc.method': path, 'rpc.grpc.status_code': code }, value: seconds, atMs: node.endMs });
    } else {
      this.sink.observe({ service: svc, instance, source: 'ebpf', metric: 'http.server.request.duration', attributes: { 'http.request.method': op.method ?? 'GET', 'http.route': op.beylaRoute ?? '/', 'http.response.status_code': httpStatus(node) }, value: seconds, atMs: node.endMs });
    }
  }

  private observeSql(svc: ServiceDef, instance: number | undefined, node: CallNode): void {
    const op = node.op;
    this.sink.observe({ service: svc, instance, source: 'ebpf', metric: 'db.client.operation.duration', attributes: { 'db.system.name': 'postgresql', 'db.operation.name': op.dbOperation ?? '', 'db.collection.name': op.dbTable ?? '' }, value: (node.endMs - node.startMs + 0.04) / 1000, atMs: node.endMs });
  }
}
