import { CoralError } from '../core/errors.js';
import type { ColonyRuntime } from '../colony/runtime.js';
import { type OtlpProtocol, parseOtlpHeaders } from '../demo/otlp-senders.js';

const PROTOCOLS: readonly OtlpProtocol[] = ['http/json', 'http/protobuf', 'grpc'];

export interface OtlpTarget {
  protocol: OtlpProtocol;
  endpoint: string;
  headers: Record<string, string>;
  /** Where the endpoint came from, said on stderr. */
  from: string;
}

/**
 * Where `demo replay` sends, the way OpenTelemetry SDKs decide: flags, then OTEL_EXPORTER_OTLP_PROTOCOL /
 * _ENDPOINT / _HEADERS, then the colony running on this machine, then the default ports.
 */
export function resolveOtlpTarget(flags: { otlp?: string; protocol?: string }, env: NodeJS.ProcessEnv, running: { rt: ColonyRuntime; token?: string } | null): OtlpTarget {
  const protocolText = flags.protocol ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/json';
  if (!PROTOCOLS.includes(protocolText as OtlpProtocol)) {
    throw new CoralError(`Unknown OTLP protocol "${protocolText}"${flags.protocol ? '' : ' (from OTEL_EXPORTER_OTLP_PROTOCOL)'}.`, `Use one of: ${PROTOCOLS.join(', ')}.`);
  }
  const protocol = protocolText as OtlpProtocol;
  const headers = parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS);
  if (flags.otlp) return { protocol, endpoint: flags.otlp, headers, from: '--otlp' };
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return { protocol, endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, headers, from: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  if (running) {
    const endpoint = protocol === 'grpc' ? running.rt.otlpGrpc : running.rt.url;
    if (!endpoint) throw new CoralError(`The running colony (pid ${running.rt.pid}) does not listen for OTLP/gRPC.`, 'Use --protocol http/json or http/protobuf, or restart it without --no-otlp-grpc.');
    if (running.token && !headers.authorization) headers.authorization = `Bearer ${running.token}`;
    return { protocol, endpoint, headers, from: `the running colony (pid ${running.rt.pid})` };
  }
  return { protocol, endpoint: protocol === 'grpc' ? 'http://127.0.0.1:4317' : 'http://127.0.0.1:4318', headers, from: 'the default port' };
}
