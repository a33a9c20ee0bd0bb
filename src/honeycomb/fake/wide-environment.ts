import { Random } from '../../core/random.js';
import type { FakeColumn, FakeDataset, FakeEnvironment } from './types.js';

/**
 * A ~100,000-column environment in 87 datasets, shaped like a large real one: every dataset carries
 * a share of the same OpenTelemetry semantic-convention names (so many names repeat across datasets),
 * metric histograms with their subfields, and its own long dotted application attributes.
 * Deterministic: the same columns on every machine, so benchmark runs are comparable.
 */
const SEMCONV = [
  'trace.trace_id', 'trace.span_id', 'trace.parent_id', 'name', 'duration_ms', 'service.name', 'service.version',
  'service.namespace', 'service.instance.id', 'span.kind', 'span.num_events', 'span.num_links', 'meta.signal_type',
  'meta.annotation_type', 'status_code', 'status_message', 'error', 'library.name', 'library.version',
  'telemetry.sdk.name', 'telemetry.sdk.language', 'telemetry.sdk.version', 'telemetry.distro.name',
  'http.request.method', 'http.request.method_original', 'http.request.body.size', 'http.request.header.content-type',
  'http.request.header.user-agent', 'http.request.header.x-forwarded-for', 'http.request.resend_count', 'http.request.size',
  'http.response.status_code', 'http.response.body.size', 'http.response.header.content-type', 'http.response.size',
  'http.route', 'http.connection.state', 'url.full', 'url.path', 'url.query', 'url.scheme', 'url.fragment', 'url.template',
  'server.address', 'server.port', 'client.address', 'client.port', 'network.peer.address', 'network.peer.port',
  'network.protocol.name', 'network.protocol.version', 'network.transport', 'network.type', 'network.local.address',
  'user_agent.original', 'user_agent.name', 'user_agent.version', 'error.type', 'exception.type', 'exception.message',
  'exception.stacktrace', 'exception.escaped', 'db.system.name', 'db.namespace', 'db.collection.name',
  'db.operation.name', 'db.operation.batch.size', 'db.query.text', 'db.query.summary', 'db.response.status_code',
  'db.response.returned_rows', 'db.stored_procedure.name', 'db.client.connection.pool.name', 'db.client.connection.state',
  'rpc.system', 'rpc.service', 'rpc.method', 'rpc.grpc.status_code', 'rpc.grpc.request.metadata.x-request-id',
  'rpc.message.type', 'rpc.message.id', 'rpc.message.compressed_size', 'rpc.message.uncompressed_size',
  'messaging.system', 'messaging.operation.name', 'messaging.operation.type', 'messaging.destination.name',
  'messaging.destination.partition.id', 'messaging.consumer.group.name', 'messaging.message.id',
  'messaging.message.body.size', 'messaging.batch.message_count', 'messaging.kafka.message.key',
  'messaging.kafka.offset', 'k8s.cluster.name', 'k8s.namespace.name', 'k8s.pod.name', 'k8s.pod.uid',
  'k8s.node.name', 'k8s.deployment.name', 'k8s.replicaset.name', 'k8s.statefulset.name', 'k8s.daemonset.name',
  'k8s.container.name', 'k8s.container.restart_count', 'container.id', 'container.image.name', 'container.image.tag',
  'container.runtime', 'cloud.provider', 'cloud.platform', 'cloud.region', 'cloud.availability_zone', 'cloud.account.id',
  'cloud.resource_id', 'host.name', 'host.id', 'host.arch', 'host.type', 'host.image.id', 'os.type', 'os.description',
  'process.pid', 'process.executable.name', 'process.command_line', 'process.runtime.name', 'process.runtime.version',
  'deployment.environment.name', 'feature_flag.key', 'feature_flag.provider.name', 'feature_flag.result.variant',
  'code.function.name', 'code.file.path', 'code.line.number', 'thread.id', 'thread.name', 'enduser.id', 'session.id',
  'aws.region', 'aws.request_id', 'aws.dynamodb.table_names', 'aws.lambda.invoked_arn', 'aws.s3.bucket', 'aws.s3.key',
  'gcp.project_id', 'faas.trigger', 'faas.invocation_id', 'faas.coldstart', 'peer.service', 'otel.status_code',
  'otel.scope.name', 'otel.scope.version',
];

/** Metric names whose histograms appear as a column per subfield, as the OTLP metrics exporter writes them. */
const METRICS = [
  'http.server.request.duration', 'http.client.request.duration', 'http.server.active_requests',
  'http.server.request.body.size', 'http.server.response.body.size', 'db.client.operation.duration',
  'db.client.connection.count', 'db.client.connection.wait_time', 'db.client.connection.use_time',
  'rpc.server.duration', 'rpc.client.duration', 'rpc.server.requests_per_rpc', 'messaging.publish.duration',
  'messaging.receive.duration', 'messaging.process.duration', 'messaging.client.consumed.messages',
  'system.cpu.utilization', 'system.cpu.time', 'system.memory.usage', 'system.memory.utilization',
  'system.disk.io', 'system.disk.operations', 'system.network.io', 'system.network.errors',
  'process.cpu.utilization', 'process.memory.usage', 'process.memory.virtual', 'process.open_file_descriptor.count',
  'jvm.memory.used', 'jvm.memory.committed', 'jvm.gc.duration', 'jvm.thread.count', 'jvm.class.loaded',
  'nodejs.eventloop.delay', 'nodejs.eventloop.utilization', 'go.memory.used', 'go.goroutine.count',
  'dotnet.gc.collections', 'dotnet.process.cpu.time', 'k8s.pod.cpu.utilization', 'k8s.pod.memory.working_set',
  'k8s.container.cpu.limit_utilization', 'k8s.node.filesystem.usage', 'container.cpu.usage', 'container.memory.rss',
  'kafka.consumer.records_lag_max', 'kafka.producer.record_send_rate', 'redis.commands.duration',
  'upstream.latency', 'upstream.request.count', 'cache.hit_ratio', 'queue.depth',
];
const SUBFIELDS = ['.p50', '.p90', '.p95', '.p99', '.p999', '.avg', '.max', '.min', '.sum', '.count', '.rate', ''];

const DOMAINS = ['checkout', 'payment', 'cart', 'catalog', 'inventory', 'shipping', 'fulfillment', 'pricing', 'search',
  'recommendation', 'identity', 'billing', 'ledger', 'fraud', 'notification', 'email', 'ads', 'media', 'reviews',
  'loyalty', 'tax', 'currency', 'quote', 'gateway', 'edge', 'auth', 'session', 'profile', 'warehouse', 'returns'];
const ENTITIES = ['order', 'line_item', 'customer', 'merchant', 'card', 'wallet', 'invoice', 'refund', 'shipment',
  'parcel', 'carrier', 'product', 'variant', 'sku', 'coupon', 'promotion', 'basket', 'account', 'token', 'request',
  'upstream', 'downstream', 'retry_policy', 'circuit_breaker', 'connection_pool', 'worker', 'batch', 'job', 'tenant'];
const FIELDS = ['id', 'status', 'amount', 'amount_usd', 'currency_code', 'count', 'total', 'latency_ms', 'duration_ms',
  'attempt', 'retries', 'error_code', 'error_message', 'region', 'tier', 'version', 'is_enabled', 'created_at',
  'updated_at', 'size_bytes', 'queue_time_ms', 'cache_hit', 'shard', 'partition', 'priority', 'score', 'reason',
  'state', 'source', 'target', 'timeout_ms', 'backoff_ms', 'bucket', 'owner', 'type', 'name', 'weight'];
const TYPES: FakeColumn['type'][] = ['string', 'float', 'integer', 'boolean', 'float', 'string', 'histogram'];

export const WIDE_DATASETS = 87;

/** The environment; about 100,000 columns in total. */
export function wideEnvironment(): FakeEnvironment {
  const rng = new Random(87);
  const metricColumns = METRICS.flatMap((m) => SUBFIELDS.map((s) => m + s));
  const datasets: FakeDataset[] = [];
  for (let d = 0; d < WIDE_DATASETS; d++) {
    const domain = DOMAINS[d % DOMAINS.length];
    const slug = `${domain}-${['api', 'worker', 'events', 'metrics'][d % 4]}-${String(d).padStart(2, '0')}`;
    // A few very wide datasets (metrics and shared event streams), most of them around a thousand.
    const size = d % 11 === 0 ? rng.int(4_000, 5_500) : rng.int(450, 1_150);
    const names = new Set<string>();
    for (const s of SEMCONV) if (rng.chance(0.7)) names.add(s);
    for (const m of metricColumns) if (rng.chance(d % 4 === 3 ? 0.8 : 0.25)) names.add(m);
    while (names.size < size) {
      const r = rng.next();
      if (r < 0.55) {
        // Application attributes: app.<domain>.<entity>.<field>, sometimes nested one level deeper.
        const parts = ['app', rng.chance(0.8) ? domain : rng.pick(DOMAINS), rng.pick(ENTITIES)];
        if (rng.chance(0.35)) parts.push(rng.pick(ENTITIES));
        parts.push(rng.pick(FIELDS));
        names.add(parts.join('.'));
      } else if (r < 0.75) {
        // Request and response headers and baggage, long and dotted.
        const kind = rng.pick(['http.request.header', 'http.response.header', 'baggage', 'rpc.grpc.request.metadata']);
        names.add(`${kind}.x-${rng.pick(DOMAINS)}-${rng.pick(ENTITIES).replace(/_/g, '-')}-${rng.pick(FIELDS).replace(/_/g, '-')}`);
      } else if (r < 0.9) {
        // Team-owned custom metrics with histogram subfields.
        names.add(`${rng.pick(DOMAINS)}.${rng.pick(ENTITIES)}.${rng.pick(FIELDS)}${rng.pick(SUBFIELDS)}`);
      } else {
        // Flattened JSON payloads: deep paths with array indexes.
        names.add(`payload.${rng.pick(ENTITIES)}.${rng.pick(ENTITIES)}.${rng.int(0, 9)}.${rng.pick(FIELDS)}`);
      }
    }
    datasets.push({
      slug,
      name: slug,
      description: `Synthetic ${domain} dataset ${d}`,
      lastWrittenAgoSec: rng.int(1, 3_600),
      columns: [...names].map((key_name) => ({ key_name, type: rng.pick(TYPES), description: '', lastWrittenAgoSec: rng.int(1, 86_400 * 10) })),
      derived: Array.from({ length: rng.int(0, 4) }, (_, i) => ({
        alias: `${domain}.dc_${d}_${i}`,
        expression: rng.chance(0.5) ? `GT($duration_ms, ${rng.int(10, 1000)})` : `IF(EQUALS($http.response.status_code, 500), 1, 0)`,
        description: '',
      })),
    });
  }
  return {
    environment: { name: 'wide', slug: 'wide' },
    team: { name: 'Wide Co', slug: 'wide-co' },
    datasets,
    environmentDerived: [
      { alias: 'sli.availability', expression: 'LT($http.response.status_code, 500)', description: 'Request succeeded' },
      { alias: 'sli.latency', expression: 'LT($duration_ms, 300)', description: 'Fast enough' },
    ],
  };
}
