import { ProviderError } from './types.js';

/**
 * Failures in words a user can act on: a rejected key names the variable or config key that holds
 * it; anything else keeps the API's own message (not its raw JSON).
 */
export interface KeyOrigin {
  /** Where the key came from, e.g. "GEMINI_API_KEY" or "ai.ask.api_keys.google (env://MY_KEY)". */
  source: string;
  /** The config key that would set it. */
  configKey: string;
}

/** The human part of an API error: the `message` inside a JSON error body, when there is one. */
export function apiMessage(raw: string): string {
  const start = raw.indexOf('{');
  if (start >= 0) {
    try {
      const body = JSON.parse(raw.slice(start)) as { error?: { message?: unknown } | string; message?: unknown };
      const m = typeof body.error === 'object' ? body.error?.message : (body.error ?? body.message);
      if (typeof m === 'string' && m) return m;
    } catch {
      // not JSON after all: the raw text is the message
    }
  }
  // The openai and anthropic SDKs put the status first ("401 Incorrect API key ...").
  return raw.trim().replace(/^\d{3} /, '');
}

/** True for an answer that means "this key is wrong" (Gemini says so with 400 API_KEY_INVALID). */
export function isKeyRejection(status: number, raw: string): boolean {
  return status === 401 || status === 403 || /API_KEY_INVALID|invalid[ _-]?(x-)?api[ _-]?key|authentication_error|incorrect api key/i.test(raw);
}

export function providerFailure(model: string, status: number, raw: string, key?: KeyOrigin): ProviderError {
  const message = apiMessage(raw).slice(0, 300).replace(/\.$/, '');
  if (key && isKeyRejection(status, raw)) {
    return new ProviderError(`${model}: the API key was rejected${status ? ` (HTTP ${status})` : ''}: ${message}. Fix the key in ${key.source}, or point ${key.configKey} at the right one (env://VARIABLE).`);
  }
  return new ProviderError(`${model}: ${status ? `HTTP ${status}: ` : ''}${message}`);
}
