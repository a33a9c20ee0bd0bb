import { describe, expect, it } from 'vitest';
import { randomScenario } from '../../src/demo/random.js';
import { generateScenario, serialize } from '../../src/demo/generate.js';
import { conditionsAt } from '../../src/demo/scenarios.js';

describe('random incidents drawn by the generator', () => {
  it('are deterministic per seed and carry a coherent ground truth', () => {
    expect(randomScenario(90_001)).toEqual(randomScenario(90_001));
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      const d = randomScenario(seed);
      kinds.add(/^Random draw \d+: ([a-z-]+)/.exec(d.story)?.[1] ?? '?');
      const faults = d.flags.filter((f) => f.flag !== 'cartWriteFailure');
      expect(d.truth.culprits.length > 0, d.story).toBe(faults.length > 0);
      expect(d.truth.startSec === null, d.story).toBe(faults.length === 0);
      for (const f of faults) expect(f.startSec).toBeGreaterThanOrEqual(1800);
      expect(d.events.some((e) => !d.truth.culprits.includes(e.service))).toBe(true);
    }
    expect([...kinds].sort()).toEqual([
      'bad-instance', 'config-push', 'consumer-lag', 'error-cascade', 'leaf-latency', 'memory-leak', 'noisy-neighbour', 'none',
      'operation-bug', 'sampled-slow', 'service-errors', 'silent-callee', 'two-faults',
    ]);
  });

  it('a slow: fault slows its service only after the onset', () => {
    const d = { ...randomScenario(1), flags: [{ flag: 'slow:shipping' as const, startSec: 2000, level: 1 }] };
    expect(conditionsAt(d, 1999)['slow:shipping']).toBeUndefined();
    expect(conditionsAt(d, 2001)['slow:shipping']).toBe(1);
  });

  it('generates an hour of telemetry for a draw, the same bytes twice', () => {
    const d = randomScenario(90_003);
    const a = serialize(generateScenario(d));
    expect(a.sha256).toBe(serialize(generateScenario(d)).sha256);
    expect(a.text.length).toBeGreaterThan(1_000_000);
  }, 60_000);
});
