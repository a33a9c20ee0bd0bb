import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type QuestionResult, formatReport, formatResult, passes, report } from '../../src/commands/demo-eval-questions.js';
import { coralCli } from '../support/coral-cli.js';

const result = (id: string, outcome: QuestionResult['outcome'], misses: string[] = [], kind: QuestionResult['kind'] = 'verdict'): QuestionResult => ({
  scenario: 'payment-failure', id, kind, heldOut: false, q: `question ${id}`, outcome, misses, answer: '', seconds: 1,
});

describe('coral demo eval --questions: the report', () => {
  it('prints one line per question, a miss with its reasons', () => {
    expect(formatResult(result('01', 'full'))).toBe('full    payment-failure/01 [verdict] "question 01"');
    expect(formatResult(result('02', 'wrong', ['answers about checkout', 'no number near 36.8%']))).toBe(
      'WRONG   payment-failure/02 [verdict] "question 02"  -- answers about checkout; no number near 36.8%',
    );
  });

  it('passes only at the share asked for and with nothing confidently wrong', () => {
    const nine = [...Array.from({ length: 9 }, (_, i) => result(`f${i}`, 'full')), result('p', 'partial', ['x'], 'absent')];
    expect(passes(report(nine), 0.9)).toBe(true);
    expect(passes(report(nine), 0.95)).toBe(false);
    // 90% fully answered, but one confidently wrong: fails.
    expect(passes(report([...nine.slice(0, 9), result('w', 'wrong', ['answers about x'])]), 0.9)).toBe(false);
    const text = formatReport(report(nine), 0.9);
    expect(text).toMatch(/absent\s+0\/1 0%\s+partial 1, wrong 0/);
    expect(text).toMatch(/Fully answered: 9\/10 90% \(target 90%\); partial: 1; confidently wrong: 0\./);
  });
});

describe('coral demo eval --questions, for real', () => {
  const cli = coralCli({ CORAL_HOME: mkdtempSync(join(tmpdir(), 'coral-qeval-')) }, 240_000);

  it('asks each question of the keyless agent and exits non-zero under --min-full', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coral-questions-'));
    const file = join(dir, 'healthy.json');
    writeFileSync(file, JSON.stringify({
      scenario: 'healthy',
      questions: [
        { id: 'any', q: 'what is wrong?', kind: 'vague', expect: {} },
        { id: 'never', q: 'status?', kind: 'vague', expect: { mustMention: ['zzz-not-a-thing'] } },
      ],
    }));
    const r = await cli('demo', 'eval', '--questions', file, '--min-full', '0.9', '-o', 'json');
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { tally: { total: number; full: number; partial: number; wrong: number }; results: QuestionResult[] };
    expect(out.tally).toMatchObject({ total: 2, full: 1, partial: 1, wrong: 0 });
    expect(out.results.find((x) => x.id === 'never')?.misses).toEqual(['does not mention zzz-not-a-thing']);
    expect(out.results.find((x) => x.id === 'any')?.answer).toMatch(/Automatic triage|recorded/);
  }, 240_000);

  it('refuses a bad --min-full and a malformed file before loading anything', async () => {
    expect((await cli('demo', 'eval', '--questions', 'test/triage/holdout', '--min-full', '2')).stderr).toMatch(/Invalid --min-full "2"/);
    const dir = mkdtempSync(join(tmpdir(), 'coral-questions-'));
    writeFileSync(join(dir, 'bad.json'), '{"scenario": "healthy", "questions": []}');
    const r = await cli('demo', 'eval', '--questions', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.json is not a question file: questions/);
  });
});
