import type { HoneycombConnectOptions } from '../honeycomb/connect.js';
import { configLayers, resolveHoneycombSettings, resolveSecret } from './config.js';

/**
 * Connection options for the Honeycomb tools from config (honeycomb.api_key as env://VAR, region,
 * api_url, cache_ttl_seconds), with explicit options winning. HONEYCOMB_API_KEY still works alone.
 * A key goes only to the URL of its own source: a project file's api_url (trusted) is used with that
 * file's api_key, never with the user's HONEYCOMB_API_KEY (README, "Tokens and where they go").
 */
export function honeycombOptions(
  explicit: HoneycombConnectOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  o: { cwd?: string; warn?: (line: string) => void } = {},
): HoneycombConnectOptions {
  const cfg = resolveHoneycombSettings({ env, cwd: o.cwd });
  let apiUrl = explicit.apiUrl ?? cfg.api_url;
  const projectUrl = configLayers(env, o.cwd, { quiet: true }).project.config.honeycomb?.api_url;
  if (!explicit.apiUrl && !explicit.apiKey && !cfg.api_key && apiUrl !== undefined && apiUrl === projectUrl) {
    if (env.HONEYCOMB_API_KEY) (o.warn ?? ((l) => process.stderr.write(`${l}\n`)))('coral: honeycomb.api_url from the project file is not sent HONEYCOMB_API_KEY; set honeycomb.api_key there (env://VAR) to use it');
    apiUrl = undefined;
  }
  return {
    apiKey: explicit.apiKey ?? (cfg.api_key ? resolveSecret(cfg.api_key, env) : undefined),
    region: explicit.region ?? cfg.region,
    apiUrl,
    cacheTtlMs: explicit.cacheTtlMs ?? (cfg.cache_ttl_seconds !== undefined ? cfg.cache_ttl_seconds * 1000 : undefined),
    demo: explicit.demo,
    fakeEnvironment: explicit.fakeEnvironment,
  };
}
