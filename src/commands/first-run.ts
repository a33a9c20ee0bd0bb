import { existsSync } from 'node:fs';
import { Document } from 'yaml';
import { type ConfigFile, configSchema, globalConfigPath } from '../agent/config.js';
import type { ColonyChoice } from '../agent/colony-choice.js';
import { sessionSettings } from '../agent/session-settings.js';
import { type Ask, PROVIDERS, askModel, askUntil, writeAtomically } from './config-edit.js';

/**
 * The first run of `coral ask` or the console with no model anywhere (no --model, no
 * CORAL_ASK_MODEL, no config file, not a demo with its recording): on a terminal, one short
 * question that Enter skips; elsewhere, never a question (scripts must not block), only the hint
 * the command prints beside "automatic triage".
 */
export const NO_MODEL_HINT = 'to choose a model: coral config set ai.ask.default_model PROVIDER:MODEL, or coral config init';

/** Written when the question is skipped, so it is asked once: YAML with comments only reads as no settings. */
export const SKIPPED_CONFIG = `# coral: no model chosen at the first run; coral ask and the console use the automatic triage.\n# Choose one: coral config set ai.ask.default_model PROVIDER:MODEL (or coral config init --force).\n`;

export function needsFirstRun(choice: ColonyChoice, model: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (model || existsSync(globalConfigPath(env))) return false;
  return sessionSettings(choice, undefined).settings.model === null;
}

/** The questions and the settings they give; null when skipped. Keys are never asked for, only their variable. */
export async function firstRunConfig(ask: Ask): Promise<ConfigFile | null> {
  const provider = await askUntil(ask, 'No model is configured for coral ask and the console. Provider (google, openai, anthropic, ollama; Enter skips: automatic triage)', 'skip', (v) => v === 'skip' || v in PROVIDERS, 'google, openai, anthropic, ollama, or Enter to skip');
  if (provider === 'skip') return null;
  return configSchema.parse({ ai: { ask: await askModel(ask, provider) } });
}

/** Asks on the terminal (stderr: stdout may be a pipe) and writes ~/.coral/config.yaml either way. */
export async function firstRunSetup(): Promise<void> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const cfg = await firstRunConfig(async (q, fallback) => rl.question(`${q}${fallback && fallback !== 'skip' ? ` [${fallback}]` : ''}: `));
    const path = globalConfigPath();
    writeAtomically(path, cfg ? new Document(cfg).toString() : SKIPPED_CONFIG);
    process.stderr.write(cfg ? `wrote ${path}\n` : `skipped: not asked again (${path}); ${NO_MODEL_HINT}\n`);
  } finally {
    rl.close();
  }
}
