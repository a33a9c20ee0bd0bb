import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CoralError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import { type AskSettings, resolveSecret } from '../config.js';
import { AnthropicProvider } from './anthropic.js';
import { FallbackProvider } from './fallback.js';
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

function key(settings: AskSettings, provider: 'google' | 'openai' | 'anthropic', envNames: string[], env: NodeJS.ProcessEnv): string {
  const ref = settings.apiKeys[provider];
  if (ref) return resolveSecret(ref, env);
  for (const n of envNames) if (env[n]) return env[n] as string;
  throw new CoralError(`No API key for ${provider}.`, `Set ai.ask.api_keys.${provider}: env://${envNames[0]} in ~/.coral/config.yaml, or export ${envNames[0]}.`);
}

/** One provider from a `provider:model` name. */
export function createProvider(name: string, settings: AskSettings, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const i = name.indexOf(':');
  const provider = name.slice(0, i);
  const model = name.slice(i + 1);
  switch (provider) {
    case 'google':
      return new GeminiProvider({ model, apiKey: key(settings, 'google', ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], env), baseUrl: env.CORAL_GEMINI_BASE_URL });
    case 'openai':
      return new OpenAIProvider({ provider: 'openai', model, apiKey: key(settings, 'openai', ['OPENAI_API_KEY'], env), baseUrl: env.OPENAI_BASE_URL });
    case 'ollama':
      return new OpenAIProvider({ provider: 'ollama', model, apiKey: 'ollama', baseUrl: env.OLLAMA_BASE_URL });
    case 'anthropic':
      return new AnthropicProvider({ model, apiKey: key(settings, 'anthropic', ['ANTHROPIC_API_KEY'], env), baseUrl: env.ANTHROPIC_BASE_URL });
    case 'replay':
      return new ReplayProvider(name, readSession(sessionPath(model)), new QuestionTriageProvider());
    case 'triage':
      return new QuestionTriageProvider();
    default:
      throw new CoralError(`Unknown model provider "${provider}".`, 'Use google, openai, anthropic, ollama, replay or triage, as provider:model.');
  }
}

/** The configured model with its fallbacks, or the automatic triage when none is configured. */
export function createModel(settings: AskSettings, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const chain = [settings.model ?? TRIAGE_MODEL, ...settings.fallbackModels].map((n) => createProvider(n, settings, env));
  return chain.length === 1 ? chain[0] : new FallbackProvider(chain);
}
