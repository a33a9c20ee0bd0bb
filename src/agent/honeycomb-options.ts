import type { HoneycombConnectOptions } from '../honeycomb/connect.js';
import { resolveHoneycombSettings, resolveSecret } from './config.js';

/**
 * Connection options for the Honeycomb tools from config (honeycomb.api_key as env://VAR, region,
 * api_url, cache_ttl_seconds), with explicit options winning. HONEYCOMB_API_KEY still works alone.
 */
export function honeycombOptions(explicit: HoneycombConnectOptions = {}, env: NodeJS.ProcessEnv = process.env): HoneycombConnectOptions {
  const cfg = resolveHoneycombSettings({ env });
  return {
    apiKey: explicit.apiKey ?? (cfg.api_key ? resolveSecret(cfg.api_key, env) : undefined),
    region: explicit.region ?? cfg.region,
    apiUrl: explicit.apiUrl ?? cfg.api_url,
    cacheTtlMs: explicit.cacheTtlMs ?? (cfg.cache_ttl_seconds !== undefined ? cfg.cache_ttl_seconds * 1000 : undefined),
    demo: explicit.demo,
    fakeEnvironment: explicit.fakeEnvironment,
  };
}
