import type { ColonyChoice } from './colony-choice.js';
import { type AskSettings, resolveAskSettings } from './config.js';
import { bundledSession } from './providers/index.js';
import type { RecordedSession } from './providers/replay.js';

/**
 * The settings a session with this colony runs with, as coral ask and the console both resolve them:
 * config for the colony's id (colonies.<id>), and on a demo with no model configured, the scenario's
 * recorded investigation (its tool calls run for real).
 */
export function sessionSettings(choice: ColonyChoice, model: string | undefined): { colonyId: string; settings: AskSettings; recorded: RecordedSession | null } {
  const colonyId = choice.colony ?? (choice.demo ? `demo:${choice.demo}` : (choice.db ?? 'default'));
  const settings = resolveAskSettings({ flags: { model }, colonyId });
  const recorded = !settings.model && choice.demo ? bundledSession(choice.demo) : null;
  if (recorded) settings.model = `replay:${choice.demo}`;
  return { colonyId, settings, recorded };
}
