import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CoralError } from '../core/errors.js';
import type { QuestionCase } from './question-eval.js';

/**
 * Question-set files: one JSON file per scenario, `{ "scenario", "heldOut", "questions": [...] }`
 * (test/triage/questions/ is the working set, test/triage/holdout/ the held-out one). Files come from
 * outside: checked field by field, with the file and the question named in the error.
 */
const numberFact = z.strictObject({
  near: z.union([z.number(), z.array(z.number()).min(1)]),
  unit: z.enum(['ms', '%', '/s', 'count']),
  tolerance: z.number().positive().max(10).optional(),
  abs: z.number().nonnegative().optional(),
  label: z.string().optional(),
  inHead: z.boolean().optional(),
});

const terms = z.array(z.string().min(1)).optional();

const expectSchema = z.strictObject({
  mustMention: terms,
  mustMentionAny: terms,
  headMentions: terms,
  mustNotBeAbout: terms,
  verdict: z.enum(['yes', 'no']).optional(),
  numbers: z.array(numberFact).optional(),
  window: z.string().min(1).optional(),
  absent: z.string().min(1).optional(),
  firstLine: z.string().min(1).refine((s) => {
    try {
      new RegExp(s, 'i');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression').optional(),
});

const questionSchema = z.strictObject({
  id: z.string().min(1),
  q: z.string().min(1).max(500),
  kind: z.enum(['vague', 'typo', 'verdict', 'number', 'compare', 'window', 'route', 'saturation', 'absent', 'rollback', 'list', 'diagnosis', 'change', 'traces']),
  expect: expectSchema,
  note: z.string().optional(),
});

const fileSchema = z.strictObject({
  scenario: z.string().min(1),
  heldOut: z.boolean().default(false),
  about: z.string().optional(),
  questions: z.array(questionSchema).min(1),
});

export interface QuestionFile {
  path: string;
  scenario: string;
  heldOut: boolean;
  questions: QuestionCase[];
}

export function parseQuestionFile(path: string, text: string): QuestionFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CoralError(`${path} is not JSON: ${(err as Error).message}`);
  }
  const r = fileSchema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
    throw new CoralError(`${path} is not a question file: ${issues}`, 'A question file is {"scenario", "questions": [{"id", "q", "kind", "expect": {...}}]} (see src/demo/question-eval.ts).');
  }
  const ids = new Set<string>();
  for (const q of r.data.questions) {
    if (ids.has(q.id)) throw new CoralError(`${path}: question id ${q.id} appears twice.`);
    ids.add(q.id);
  }
  return { path, scenario: r.data.scenario, heldOut: r.data.heldOut, questions: r.data.questions.map(({ note: _, ...q }) => q) };
}

/** A file, or every .json file of a directory (sorted, not recursive). */
export function readQuestionFiles(path: string): QuestionFile[] {
  if (!existsSync(path)) throw new CoralError(`No question file or directory ${path}.`, 'Give a .json file or a directory of them (e.g. test/triage/questions).');
  const files = statSync(path).isDirectory()
    ? readdirSync(path).filter((f) => f.endsWith('.json')).sort().map((f) => join(path, f))
    : [path];
  if (files.length === 0) throw new CoralError(`${path} holds no .json question files.`);
  return files.map((f) => parseQuestionFile(f, readFileSync(f, 'utf8')));
}
