import type { HoneycombConnectOptions } from '../honeycomb/connect.js';
import { type HoneycombSettings, configLayers, resolveHoneycombSettings, resolveSecret } from './config.js';

/**
 * The Honeycomb settings in effect: a key goes only to the URL of its own source, so a project
 * file's api_url (trusted) is used with that file's api_key, never with the user's HONEYCOMB_API_KEY
 * (README, "Tokens and where they go"). `dropped` names an api_url left out for that reason.
 */
export function honeycombSettingsInEffect(env: NodeJS.ProcessEnv = process.env, cwd?: string, quiet = false): HoneycombSettings & { dropped?: string } {
  const cfg = resolveHoneycombSettings({ env, cwd, quiet });
  const projectUrl = configLayers(env, cwd, { quiet: true }).project.config.honeycomb?.api_url;
  if (cfg.api_key || cfg.api_url === undefined || cfg.api_url !== projectUrl) return cfg;
  const { api_url: dropped, ...rest } = cfg;
  return { ...rest, dropped };
}

/**
 * Connection options for the Honeycomb tools from config (honeycomb.api_key as env://VAR, region,
 * api_url, cache_ttl_seconds), with explicit options winning. HONEYCOMB_API_KEY still works alone.
 */
export function honeycombOptions(
  explicit: HoneycombConnectOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  o: { cwd?: string; warn?: (line: string) => void } = {},
): HoneycombConnectOptions {
  const cfg = honeycombSettingsInEffect(env, o.cwd);
  if (cfg.dropped && !explicit.apiUrl && env.HONEYCOMB_API_KEY) {
    (o.warn ?? ((l) => process.stderr.write(`${l}\n`)))('coral: honeycomb.api_url from the project file is not sent HONEYCOMB_API_KEY; set honeycomb.api_key there (env://VAR) to use it');
  }
  return {
    apiKey: explicit.apiKey ?? (cfg.api_key ? resolveSecret(cfg.api_key, env) : undefined),
    region: explicit.region ?? cfg.region,
    apiUrl: explicit.apiUrl ?? cfg.api_url,
    cacheTtlMs: explicit.cacheTtlMs ?? (cfg.cache_ttl_seconds !== undefined ? cfg.cache_ttl_seconds * 1000 : undefined),
    demo: explicit.demo,
    fakeEnvironment: explicit.fakeEnvironment,
  };
}
