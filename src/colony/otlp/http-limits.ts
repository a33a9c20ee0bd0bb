import type { Server, ServerOptions } from 'node:http';

/**
 * What one connection may hold of the colony's HTTP port (OTLP/HTTP and /mcp share it). Without
 * these, Node waits 60 s for headers, 300 s for a body, checks only every 30 s and takes any number of
 * connections: 3,050 connections trickling bytes were all still open after 75 s.
 */
export interface HttpLimits {
  /** The request line and headers must arrive within this (Node answers 408 and closes). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; an answer being streamed is not limited. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (Node adds a second of grace). */
  keepAliveTimeoutMs: number;
  /** Connections open at once; one beyond is closed at once. */
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  // A body of --max-body-mb (20 MiB by default) needs ~6 Mbit/s; exporters send far smaller batches.
  requestTimeoutMs: 30_000,
  // Exporters send every few seconds (the SDKs' batch delay is 5 s) and keep their connection.
  keepAliveTimeoutMs: 15_000,
  maxConnections: 1024,
};

/** Options for createServer: the timeouts are enforced by a sweep, run often enough to keep them. */
export function httpServerOptions(l: HttpLimits): ServerOptions {
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(l.headersTimeoutMs / 4))),
  };
}

/** What createServer's options cannot set. */
export function applyHttpLimits(server: Server, l: HttpLimits): void {
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  server.maxConnections = l.maxConnections;
}
