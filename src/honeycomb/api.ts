import { setTimeout as sleep } from 'node:timers/promises';
import { CoralError } from '../core/errors.js';
import { Gate } from '../core/gate.js';
import { ALL_DATASETS, type HcAuth, type HcColumn, type HcDataset, type HcDerivedColumn } from './types.js';

export const US_API = 'https://api.honeycomb.io';
const SERVER_ERROR_ATTEMPTS = 3;
export const EU_API = 'https://api.eu1.honeycomb.io';

export interface HoneycombClientOptions {
  apiKey: string;
  /** US (default) or EU endpoint, or a compatible server. */
  baseUrl?: string;
  /** Datasets, columns and derived columns are cached this long (default 10 minutes). */
  cacheTtlMs?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Attempts per request while rate-limited (429; default 6). A 5xx is tried 3 times at most. */
  maxAttempts?: number;
  /** Longest single wait for Retry-After or a rate-limit reset (default 60 s). */
  maxWaitMs?: number;
  now?: () => number;
}

/** A request that failed for good; `status` 0 means the server could not be reached. */
export class HoneycombApiError extends CoralError {
  constructor(
    readonly status: number,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
    this.name = 'HoneycombApiError';
  }
}

/**
 * Retry-After in its three forms: delta-seconds, an HTTP-date, or (older Honeycomb) an ISO
 * timestamp. Returns milliseconds to wait, or null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The `RateLimit: limit=X, remaining=Y, reset=Z` header (reset in seconds). */
export function parseRateLimit(value: string | null): { limit: number; remaining: number; resetSec: number } | null {
  if (!value) return null;
  const fields = Object.fromEntries(value.split(',').map((p) => p.trim().split('=').map((s) => s.trim())).filter((kv) => kv.length === 2)) as Record<string, string>;
  const [limit, remaining, resetSec] = [fields.limit, fields.remaining, fields.reset].map(Number);
  if (![limit, remaining, resetSec].every(Number.isFinite)) return null;
  return { limit, remaining, resetSec };
}

function errorText(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: string; title?: string; detail?: string };
    return j.error ?? j.detail ?? j.title ?? body;
  } catch {
    return body.slice(0, 200);
  }
}

/**
 * The Honeycomb REST client: auth header, retries on 429 and 5xx honouring Retry-After, a pause
 * when RateLimit says the budget is spent, a concurrency limit, and a TTL cache that also shares
 * one in-flight request between concurrent callers.
 */
export class HoneycombClient {
  readonly baseUrl: string;
  /** HTTP requests actually sent (cache hits excluded): what tests and benchmarks count. */
  requestsSent = 0;
  private readonly cache = new Map<string, { at: number; value: Promise<unknown> }>();
  private readonly gate: Gate;
  private pausedUntil = 0;

  constructor(private readonly opts: HoneycombClientOptions) {
    this.baseUrl = (opts.baseUrl ?? US_API).replace(/\/+$/, '');
    this.gate = new Gate(opts.concurrency ?? 4);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  auth(): Promise<HcAuth> {
    return this.cached('/1/auth');
  }

  datasets(): Promise<HcDataset[]> {
    return this.cached('/1/datasets');
  }

  columns(dataset: string): Promise<HcColumn[]> {
    return this.cached(`/1/columns/${encodeURIComponent(dataset)}`);
  }

  /** Dataset-level derived columns, or the environment-wide ones for `__all__`. */
  derivedColumns(dataset: string = ALL_DATASETS): Promise<HcDerivedColumn[]> {
    return this.cached(`/1/derived_columns/${encodeURIComponent(dataset)}`);
  }

  clearCache(): void {
    this.cache.clear();
  }

  private cached<T>(path: string): Promise<T> {
    const ttl = this.opts.cacheTtlMs ?? 600_000;
    const hit = this.cache.get(path);
    if (hit && this.now() - hit.at < ttl) return hit.value as Promise<T>;
    const value = this.gate.run(() => this.request<T>(path));
    this.cache.set(path, { at: this.now(), value });
    value.catch(() => this.cache.delete(path));
    return value;
  }

  private async request<T>(path: string): Promise<T> {
    const attempts = this.opts.maxAttempts ?? 6;
    const maxWait = this.opts.maxWaitMs ?? 60_000;
    for (let attempt = 1; ; attempt++) {
      const pause = this.pausedUntil - this.now();
      if (pause > 0) await sleep(Math.min(pause, maxWait));
      let res: Response;
      try {
        this.requestsSent++;
        res = await fetch(`${this.baseUrl}${path}`, { headers: { 'X-Honeycomb-Team': this.opts.apiKey, accept: 'application/json' } });
      } catch (err) {
        if (attempt < attempts) {
          await sleep(250 * 2 ** (attempt - 1));
          continue;
        }
        throw new HoneycombApiError(0, `Cannot reach Honeycomb at ${this.baseUrl}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`, 'Check the network and the API URL (US: https://api.honeycomb.io, EU: https://api.eu1.honeycomb.io).');
      }
      const limit = parseRateLimit(res.headers.get('ratelimit'));
      if (limit && limit.remaining <= 0) this.pausedUntil = Math.max(this.pausedUntil, this.now() + limit.resetSec * 1000);
      if (res.ok) return (await res.json()) as T;
      const body = await res.text();
      // A failing server rarely heals within seconds: 5xx gets a short second chance, 429 its full budget.
      const budget = res.status === 429 ? attempts : Math.min(attempts, SERVER_ERROR_ATTEMPTS);
      if ((res.status === 429 || res.status >= 500) && attempt < budget) {
        // A floor on 429: an HTTP-date has whole seconds, so it can name a moment just passed.
        const given = retryAfterMs(res.headers.get('retry-after'), this.now());
        const wait = given === null ? 250 * 2 ** (attempt - 1) : res.status === 429 ? Math.max(given, 250) : given;
        if (res.status === 429) this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.min(wait, maxWait));
        await sleep(Math.min(wait, maxWait));
        continue;
      }
      throw this.failure(res.status, path, errorText(body));
    }
  }

  private failure(status: number, path: string, detail: string): HoneycombApiError {
    switch (status) {
      case 401:
        return new HoneycombApiError(401, `Honeycomb rejected the API key (401: ${detail}).`, 'Check HONEYCOMB_API_KEY (or the key your config points to) and that it belongs to this region\'s environment.');
      case 403:
        return new HoneycombApiError(403, `The API key may not read ${path} (403: ${detail}).`, 'Give the key the "Manage Queries and Columns" permission, or use a configuration key for this environment.');
      case 404:
        return new HoneycombApiError(404, `Not found: ${path} (404: ${detail}).`, 'Check the dataset slug (honeycomb_get_environment_summary lists them) and the API URL.');
      case 429:
        return new HoneycombApiError(429, `Honeycomb kept rate-limiting ${path} after retries (429: ${detail}).`, 'Wait a minute, or search one dataset at a time.');
      default:
        return new HoneycombApiError(status, `Honeycomb answered ${status} for ${path}: ${detail}`);
    }
  }
}
