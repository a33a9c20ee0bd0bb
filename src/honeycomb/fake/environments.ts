import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.js';
import { Random } from '../../core/random.js';
import type { FakeColumn, FakeDataset, FakeEnvironment } from './types.js';
import { wideEnvironment } from './wide-environment.js';

/**
 * Fake Honeycomb environments. Ages are seconds before the server answers, so "10 seconds ago"
 * stays true however old the fixture file is.
 */
export const FAKE_ENVIRONMENTS = ['demo', 'large', 'wide'] as const;
export type FakeEnvironmentName = (typeof FAKE_ENVIRONMENTS)[number];

export function demoEnvironment(): FakeEnvironment {
  return JSON.parse(readFileSync(join(packageRoot(), 'demo-data', 'honeycomb', 'demo.json'), 'utf8')) as FakeEnvironment;
}

const PREFIXES = ['http', 'db', 'rpc', 'k8s', 'cloud', 'system', 'messaging', 'app', 'user', 'feature_flag', 'net', 'process', 'cache', 'queue', 'payment'];
const WORDS = ['request', 'response', 'latency', 'duration', 'status', 'code', 'count', 'size', 'bytes', 'error', 'retries', 'region', 'zone', 'tier', 'memory', 'cpu', 'utilization', 'queue', 'depth', 'lag', 'hits', 'misses', 'version', 'id', 'name', 'type', 'total', 'rate', 'timeout', 'connections'];
const SUFFIXES = ['', '', '', '_ms', '_bytes', '.p99', '.p95', '.avg', '.count', '.max'];
const TYPES: FakeColumn['type'][] = ['string', 'float', 'integer', 'boolean', 'float', 'string'];

/** 64 datasets, several with 2,000+ columns, realistic dotted names: the scale the spec worries about. Deterministic. */
export function largeEnvironment(): FakeEnvironment {
  const rng = new Random(64);
  const datasets: FakeDataset[] = [];
  for (let d = 0; d < 64; d++) {
    const size = d % 9 === 0 ? 2_000 + rng.int(0, 800) : rng.int(40, 400);
    const names = new Set<string>(['trace.trace_id', 'trace.span_id', 'trace.parent_id', 'name', 'duration_ms', 'service.name', 'error']);
    while (names.size < size) {
      const parts = [rng.pick(PREFIXES), rng.pick(WORDS)];
      if (rng.chance(0.6)) parts.push(rng.pick(WORDS));
      names.add(parts.join('.') + rng.pick(SUFFIXES) + (rng.chance(0.3) ? `_${rng.int(1, 99)}` : ''));
    }
    datasets.push({
      slug: `svc-${String(d).padStart(2, '0')}`,
      name: `svc-${String(d).padStart(2, '0')}`,
      description: `Synthetic service ${d}`,
      lastWrittenAgoSec: d % 13 === 12 ? 90 * 86_400 : rng.int(1, 3_600),
      columns: [...names].map((key_name) => ({ key_name, type: rng.pick(TYPES), description: '', lastWrittenAgoSec: rng.int(1, 86_400 * 10) })),
      derived: Array.from({ length: rng.int(0, 6) }, (_, i) => ({ alias: `dc_${d}_${i}`, expression: `GT($duration_ms, ${rng.int(10, 1000)})`, description: '' })),
    });
  }
  return {
    environment: { name: 'large', slug: 'large' },
    team: { name: 'Large Co', slug: 'large-co' },
    datasets,
    environmentDerived: [{ alias: 'sli.availability', expression: 'LT($http.response.status_code, 500)', description: 'Request succeeded' }],
  };
}

export function fakeEnvironment(name: FakeEnvironmentName): FakeEnvironment {
  if (name === 'wide') return wideEnvironment();
  return name === 'large' ? largeEnvironment() : demoEnvironment();
}
