import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CoralError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import { type AskSettings, resolveSecret } from '../config.js';
import { AnthropicProvider } from './anthropic.js';
import { type ConsentGate, FallbackProvider } from './fallback.js';
import type { KeyOrigin } from './errors.js';
import { hasConsent } from '../consent.js';
import { inferModelName } from '../model-names.js';
import { GeminiProvider } from './gemini.js';
import { OpenAIProvider } from './openai.js';
import { type RecordedSession, ReplayProvider, readSession } from './replay.js';
import { QuestionTriageProvider } from './question-triage.js';
import { TRIAGE_MODEL } from './triage.js';
import type { ModelProvider } from './types.js';

export function sessionsDir(): string {
  return join(packageRoot(), 'demo-data', 'sessions');
}

/** A demo scenario's bundled recorded investigation, or null when it has none. */
export function bundledSession(scenario: string): RecordedSession | null {
  const path = join(sessionsDir(), `${scenario}.json`);
  return existsSync(path) ? readSession(path) : null;
}

/** The recorded session a replay:<name> means: a file path, or a bundled scenario's session. */
export function sessionPath(name: string): string {
  if (existsSync(name)) return name;
  const bundled = join(sessionsDir(), `${name}.json`);
  if (existsSync(bundled)) return bundled;
  throw new CoralError(`No recorded session "${name}".`, `Use a file recorded with coral ask --record, or a bundled one: replay:<scenario> (see coral demo list).`);
}

type KeyedProvider = 'google' | 'openai' | 'anthropic';

/** The API key, and where it came from (named when the API rejects it). */
function key(settings: AskSettings, provider: KeyedProvider, envNames: string[], env: NodeJS.ProcessEnv): { apiKey: string; key: KeyOrigin } {
  const configKey = `ai.ask.api_keys.${provider}`;
  const ref = settings.apiKeys[provider];
  if (ref) return { apiKey: resolveSecret(ref, env), key: { source: ref.startsWith('env://') ? `${ref.slice(6)} (${configKey}: ${ref})` : `${configKey} (${ref})`, configKey } };
  for (const n of envNames) if (env[n]) return { apiKey: env[n] as string, key: { source: n, configKey } };
  throw new CoralError(`No API key for ${provider}.`, `Set ${configKey}: env://${envNames[0]} in ~/.coral/config.yaml, or export ${envNames[0]}.`);
}

/** One provider from a `provider:model` name. */
export function createProvider(bare: string, settings: AskSettings, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  // A bare name (the console's :model gemini-2.5-flash) gets its provider as config names do.
  const name = inferModelName(bare, 'model').model;
  const i = name.indexOf(':');
  if (i < 0) throw new CoralError(`"${bare}" is not a model name.`, 'A model is provider:model, e.g. google:gemini-2.5-flash, openai:gpt-4o-mini, anthropic:claude-sonnet-4-6, ollama:llama3.2.');
  const provider = name.slice(0, i);
  const model = name.slice(i + 1);
  switch (provider) {
    case 'google':
      return new GeminiProvider({ model, ...key(settings, 'google', ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], env), baseUrl: env.CORAL_GEMINI_BASE_URL });
    case 'openai':
      return new OpenAIProvider({ provider: 'openai', model, ...key(settings, 'openai', ['OPENAI_API_KEY'], env), baseUrl: env.OPENAI_BASE_URL });
    case 'ollama':
      return new OpenAIProvider({ provider: 'ollama', model, apiKey: 'ollama', baseUrl: env.OLLAMA_BASE_URL, contextTokens: ollamaContext(env) });
    case 'anthropic':
      return new AnthropicProvider({ model, ...key(settings, 'anthropic', ['ANTHROPIC_API_KEY'], env), baseUrl: env.ANTHROPIC_BASE_URL });
    case 'replay':
      return new ReplayProvider(name, readSession(sessionPath(model)), new QuestionTriageProvider());
    case 'triage':
      return new QuestionTriageProvider();
    default:
      throw new CoralError(`Unknown model provider "${provider}".`, 'Use google, openai, anthropic, ollama, replay or triage, as provider:model.');
  }
}

/** The context Ollama runs with, as the user told Ollama (OLLAMA_CONTEXT_LENGTH), when coral can see it. */
function ollamaContext(env: NodeJS.ProcessEnv): number | undefined {
  const n = Number(env.OLLAMA_CONTEXT_LENGTH);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Who a model sends data to, for the consent question: the part before the colon. */
export const providerOf = (model: string) => model.split(':')[0];

/**
 * The configured model with its fallbacks, or the automatic triage when none is configured. The
 * primary is built at once (a missing key is an error now); fallbacks only when one must take
 * over, after `consent` allowed their provider.
 */
export function createModel(settings: AskSettings, env: NodeJS.ProcessEnv = process.env, consent?: ConsentGate): ModelProvider {
  const primary = createProvider(settings.model ?? TRIAGE_MODEL, settings, env);
  if (settings.fallbackModels.length === 0) return primary;
  const fallbacks = settings.fallbackModels.map((name) => ({ name, create: () => createProvider(name, settings, env) }));
  return new FallbackProvider([primary, ...fallbacks], consent ?? recordedConsentOnly(env));
}

/** Without a way to ask (the full-screen console), a fallback may only use a provider already consented to. */
function recordedConsentOnly(env: NodeJS.ProcessEnv): ConsentGate {
  return async (p) => {
    const provider = providerOf(p.name);
    if (!hasConsent(provider, env)) throw new CoralError(`no consent to send telemetry to ${provider}'s cloud API`, `Run coral ask --yes --model ${p.name} once to allow it.`);
  };
}
