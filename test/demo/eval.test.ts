import { describe, expect, it } from 'vitest';
import { type EvalRow, formatTable, judge, runEval, scoreByKind, seedsFor, triageNames } from '../../src/commands/demo-eval.js';
import { scenarioByName } from '../../src/demo/scenarios.js';

describe('coral demo eval scoring', () => {
  it('ranks the first culprit among what stands out; a healthy hour must be quiet', () => {
    expect(judge(['payment'], ['payment', 'checkout'])).toEqual({ rank: 1, ok: true });
    expect(judge(['payment'], ['checkout', 'payment'])).toEqual({ rank: 2, ok: false });
    expect(judge(['payment'], ['checkout'])).toEqual({ rank: null, ok: false });
    expect(judge(['checkout', 'fraud-detection'], ['fraud-detection'])).toEqual({ rank: 1, ok: true });
    expect(judge([], [])).toEqual({ rank: null, ok: true });
    expect(judge([], ['frontend'])).toEqual({ rank: null, ok: false });
  });

  it('reads the root cause the triage named', () => {
    expect(triageNames('Finding: x\n\nRoot cause (most likely): payment: it changed most', ['payment'])).toBe(true);
    expect(triageNames('Root cause (most likely): checkout: ...', ['payment'])).toBe(false);
    expect(triageNames('Finding: nothing stands out against the previous window [1]', [])).toBe(true);
    expect(triageNames('Root cause (most likely): frontend: ...', [])).toBe(false);
  });

  it('uses the committed seed first, then stable others', () => {
    const def = scenarioByName('healthy');
    if (!def) throw new Error('healthy missing');
    expect(seedsFor(def, 2)).toEqual([1001, 7108, 7209]);
  });

  it('prints one row per run and a total', () => {
    const row = (scenario: string, ok: boolean, standOut: string[]): EvalRow => ({
      scenario, kind: scenario === 'healthy' ? 'none' : 'operation-bug', seed: 1, culprits: scenario === 'healthy' ? [] : ['payment'], culpritRank: ok ? 1 : null, standOut, triageNamed: ok, ok, seconds: 1,
    });
    const table = formatTable([row('healthy', true, []), row('payment-failure', false, ['checkout'])]);
    expect(table).toMatch(/^scenario\s+seed\s+culprit\s+rank\s+triage\s+stand out/);
    expect(table).toMatch(/healthy\s+1\s+\(none\)\s+quiet\s+yes\s+-/);
    expect(table).toMatch(/payment-failure\s+1\s+payment\s+MISSED\s+NO\s+checkout/);
    expect(table).toMatch(/1\/2 right/);
    expect(table).toMatch(/kind\s+runs\s+top@1\s+found\s+triage\s+right\n(.*\n)?none\s+1\s+1\/1 100%/);
    expect(table).toMatch(/operation-bug\s+1\s+0\/1 0%\s+0\/1 0%/);
  });

  it('scores each kind: top@1 is the culprit first (a quiet hour for none), found is at any rank', () => {
    const row = (kind: EvalRow['kind'], culprits: string[], rank: number | null, standOut: string[], triageNamed: boolean): EvalRow => ({
      scenario: kind, kind, seed: 1, culprits, culpritRank: rank, standOut, triageNamed, ok: (rank === 1 || (culprits.length === 0 && standOut.length === 0)) && triageNamed, seconds: 1,
    });
    const scores = scoreByKind([
      row('bad-instance', ['cart'], 1, ['cart'], true),
      row('bad-instance', ['cart'], 2, ['frontend', 'cart'], false),
      row('bad-instance', ['cart'], null, ['frontend'], false),
      row('none', [], null, [], true),
      row('none', [], null, ['frontend'], false),
      row('consumer-lag', ['fraud-detection'], 1, ['fraud-detection'], false),
    ]);
    expect(scores).toEqual([
      { kind: 'bad-instance', runs: 3, top1: 1, found: 2, triageNamed: 1, ok: 1 },
      { kind: 'consumer-lag', runs: 1, top1: 1, found: 1, triageNamed: 0, ok: 0 },
      { kind: 'none', runs: 2, top1: 1, found: 1, triageNamed: 1, ok: 1 },
    ]);
  });
});

describe('coral demo eval, for real', () => {
  it('runs the summary and the triage on a scenario and scores them against its truth', async () => {
    const [row] = await runEval({ scenarios: ['checkout-bug-chronic-cart'], seeds: 1 });
    expect(row).toMatchObject({ scenario: 'checkout-bug-chronic-cart', kind: 'operation-bug', seed: 9009, culprits: ['checkout'], culpritRank: 1, triageNamed: true, ok: true });
    expect(row.standOut).not.toContain('cart');
  }, 180_000);

  it('rejects an unknown scenario with the known ones', async () => {
    await expect(runEval({ scenarios: ['nope'], seeds: 1 })).rejects.toThrow(/Unknown scenario nope/);
  });
});
