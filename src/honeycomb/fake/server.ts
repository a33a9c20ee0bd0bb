import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { FakeEnvironment } from './types.js';

/**
 * A local stand-in for the Honeycomb REST API: the same endpoints, bodies and error formats, with
 * switchable latency, a per-minute rate limit answered by 429 + Retry-After, and failing datasets.
 */
export interface FakeHoneycombOptions {
  env: FakeEnvironment;
  apiKey: string;
  latencyMs?: number;
  /** Requests per minute before 429s (Retry-After as an HTTP-date, RateLimit headers throughout). */
  rateLimitPerMinute?: number;
  /** Dataset slugs whose columns and derived columns answer 500. */
  failingDatasets?: string[];
  /** Length of a rate-limit window (default one minute). */
  rateWindowMs?: number;
  /** How Retry-After is spelled: an HTTP-date (default, as today), delta-seconds, or an ISO timestamp (older API). */
  retryAfterFormat?: 'http-date' | 'seconds' | 'iso';
  port?: number;
}

export interface FakeHoneycomb {
  url: string;
  /** Requests received, by path. */
  requests: Map<string, number>;
  totalRequests(): number;
  /** 429s answered so far. */
  rateLimited(): number;
  set(opts: Partial<Pick<FakeHoneycombOptions, 'latencyMs' | 'rateLimitPerMinute' | 'failingDatasets'>>): void;
  close(): Promise<void>;
}

const iso = (agoSec: number | null, now: number) => (agoSec === null ? null : new Date(now - agoSec * 1000).toISOString());
const CREATED = '2024-01-15T10:00:00.000Z';

export function startFakeHoneycomb(opts: FakeHoneycombOptions): Promise<FakeHoneycomb> {
  const state = { latencyMs: opts.latencyMs ?? 0, rateLimitPerMinute: opts.rateLimitPerMinute, failing: new Set(opts.failingDatasets ?? []) };
  const requests = new Map<string, number>();
  let windowStart = Date.now();
  let windowCount = 0;
  let limited = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (state.latencyMs > 0) await new Promise((r) => setTimeout(r, state.latencyMs));
    const now = Date.now();
    const rl: Record<string, string> = {};
    if (state.rateLimitPerMinute !== undefined) {
      const windowMs = opts.rateWindowMs ?? 60_000;
      if (now - windowStart >= windowMs) {
        windowStart = now;
        windowCount = 0;
      }
      windowCount++;
      const resetAt = windowStart + windowMs;
      const resetSec = Math.max(1, Math.ceil((resetAt - now) / 1000));
      rl.RateLimit = `limit=${state.rateLimitPerMinute}, remaining=${Math.max(0, state.rateLimitPerMinute - windowCount)}, reset=${resetSec}`;
      if (windowCount > state.rateLimitPerMinute) {
        limited++;
        const format = opts.retryAfterFormat ?? 'http-date';
        const retryAfter = format === 'seconds' ? String(resetSec) : format === 'iso' ? new Date(resetAt).toISOString() : new Date(resetAt).toUTCString();
        send(res, 429, { error: 'request rate limit exceeded' }, { ...rl, 'Retry-After': retryAfter });
        return;
      }
    }
    if (req.method !== 'GET') return send(res, 405, { error: `method ${req.method} not allowed` }, rl);
    if (req.headers['x-honeycomb-team'] !== opts.apiKey) {
      return send(res, 401, { status: 401, type: 'https://api.honeycomb.io/problems/unauthorized', title: 'The API key provided is invalid.', error: 'unknown API key - check your credentials' }, rl);
    }
    const env = opts.env;
    if (path === '/1/auth') {
      return send(res, 200, { id: 'fake-key-id', type: 'configuration', api_key_access: { columns: true, createDatasets: false, queries: true }, environment: env.environment, team: env.team }, rl);
    }
    if (path === '/1/datasets') {
      return send(res, 200, env.datasets.map((d) => ({
        name: d.name, slug: d.slug, description: d.description, settings: { delete_protected: false }, expand_json_depth: 0,
        created_at: CREATED, last_written_at: iso(d.lastWrittenAgoSec, now), regular_columns_count: d.columns.length,
      })), rl);
    }
    const m = /^\/1\/(columns|derived_columns)\/([^/]+)$/.exec(path);
    if (!m) return send(res, 404, { error: `no route for ${path}` }, rl);
    const slug = decodeURIComponent(m[2]);
    if (m[1] === 'derived_columns' && slug === '__all__') {
      return send(res, 200, env.environmentDerived.map((d, i) => ({ id: `env-dc-${i}`, ...d, created_at: CREATED, updated_at: CREATED })), rl);
    }
    const ds = env.datasets.find((d) => d.slug === slug);
    if (!ds) return send(res, 404, { error: 'Dataset not found' }, rl);
    if (state.failing.has(slug)) return send(res, 500, { error: 'internal error reading dataset' }, rl);
    if (m[1] === 'columns') {
      return send(res, 200, ds.columns.map((c, i) => ({
        id: `${slug}-c${i}`, key_name: c.key_name, type: c.type, description: c.description, hidden: c.hidden ?? false,
        ...(c.lastWrittenAgoSec !== null ? { last_written: iso(c.lastWrittenAgoSec, now) } : {}), created_at: CREATED, updated_at: CREATED,
      })), rl);
    }
    return send(res, 200, ds.derived.map((d, i) => ({ id: `${slug}-dc${i}`, ...d, created_at: CREATED, updated_at: CREATED })), rl);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { error: err.message }));
  });
  return new Promise((resolve) => {
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const addr = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${addr.port}`,
        requests,
        totalRequests: () => [...requests.values()].reduce((a, b) => a + b, 0),
        rateLimited: () => limited,
        set(o) {
          if (o.latencyMs !== undefined) state.latencyMs = o.latencyMs;
          if ('rateLimitPerMinute' in o) state.rateLimitPerMinute = o.rateLimitPerMinute;
          if (o.failingDatasets) state.failing = new Set(o.failingDatasets);
        },
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
