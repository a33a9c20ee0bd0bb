import { describe, expect, it } from 'vitest';
import { generateScenario } from '../../src/demo/generate.js';
import { randomScenario } from '../../src/demo/random.js';
import { leaves, randomTopology } from '../../src/demo/topology.js';
import { SERVICES } from '../../src/demo/world.js';

describe('random topologies', () => {
  it('are deterministic per seed and vary in names, depth, languages, instrumentation and conventions', () => {
    expect(randomTopology(7)).toEqual(randomTopology(7));
    const depths = new Set<number>();
    const instrumentations = new Set<string>();
    const languages = new Set<string>();
    let legacy = 0;
    let current = 0;
    let withConsumers = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const t = randomTopology(seed);
      depths.add(t.levels.length - 1);
      for (const s of t.services) {
        instrumentations.add(s.instrumentation);
        languages.add(s.language);
        if (s.legacyNames) legacy++;
        else current++;
        expect(SERVICES.some((shop) => shop.name === s.name)).toBe(false);
      }
      if (t.consumers.length > 0) withConsumers++;
      expect(new Set(t.services.map((s) => s.name)).size).toBe(t.services.length);
      // Every service below the gateway is called by some operation one level up or more.
      for (const svc of t.levels.slice(1).flat()) expect(t.ops.some((o) => o.service !== svc && o.calls.some((c) => typeof c.to === 'number' && t.ops[c.to].service === svc)), svc).toBe(true);
      expect(leaves(t).length).toBeGreaterThan(0);
    }
    expect([...depths].sort()).toEqual([2, 3, 4, 5]);
    expect([...instrumentations].sort()).toEqual(['both', 'ebpf', 'sdk']);
    expect(languages.size).toBeGreaterThan(6);
    expect(legacy).toBeGreaterThan(10);
    expect(current).toBeGreaterThan(10);
    expect(withConsumers).toBeGreaterThan(5);
  });

  it('an hour on a random topology carries its services, its faulted culprit and its consumers', () => {
    let seed = 1;
    while (!(randomScenario(seed).topology && randomScenario(seed).truth.culprits.length > 0)) seed++;
    const def = randomScenario(seed);
    const t = randomTopology(def.topology?.seed ?? 0);
    const text = generateScenario(def).lines.filter((l) => l.signal === 'traces').map((l) => JSON.stringify(l.body)).join('\n');
    for (const s of t.services) expect(text, s.name).toContain(`"stringValue":"${s.name}"`);
    expect(text).not.toContain('"stringValue":"frontend-proxy"');
    expect(t.services.map((s) => s.name)).toContain(def.truth.culprits[0]);
  }, 60_000);
});
