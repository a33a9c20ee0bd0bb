import { type Signal, questionSignals } from '../question.js';
import { type Entities, entities } from './entities.js';
import { type KindReading, questionKind } from './kinds.js';
import { type WindowWords, windowWords } from './window.js';

/**
 * Everything the automatic triage (and the model's prompt) reads from one question, without a model:
 * what it names, what shape of answer it wants, which signals, and the window its words give.
 */
export interface Understanding extends Entities, KindReading {
  question: string;
  signals: Signal[];
  percentiles: number[];
  window: WindowWords | null;
}

export function understand(question: string, services: readonly string[]): Understanding {
  return { question, ...entities(question, services), ...questionKind(question), ...questionSignals(question), window: windowWords(question) };
}
