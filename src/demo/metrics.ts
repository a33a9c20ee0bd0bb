import type { Observation } from './instrument.js';
import { type KeyValue, attributes, nanos } from './otlp-json.js';
import { BEYLA_BOUNDS_S, SDK_BOUNDS_MS, type ServiceDef } from './world.js';

/**
 * Cumulative explicit-bucket histograms, exported every interval the way Beyla and the SDKs do:
 * every series every time, counts since the series' start.
 */
interface Series {
  service: ServiceDef;
  instance?: number;
  source: 'sdk' | 'ebpf';
  metric: Observation['metric'];
  attributes: KeyValue[];
  bounds: number[];
  counts: number[];
  count: number;
  sum: number;
}

export interface MetricPoint {
  service: ServiceDef;
  instance?: number;
  source: 'sdk' | 'ebpf';
  scope: string;
  metric: Record<string, unknown>;
}

const UNITS: Record<Observation['metric'], string> = {
  'http.server.request.duration': 's',
  'http.server.duration': 'ms',
  'rpc.server.duration': 's',
  'rpc.server.call.duration': 's',
  'db.client.operation.duration': 's',
};

function bucketOf(bounds: number[], v: number): number {
  for (let i = 0; i < bounds.length; i++) if (v <= bounds[i]) return i;
  return bounds.length;
}

export class HistogramAccumulator {
  private readonly series = new Map<string, Series>();
  private readonly pending: Observation[] = [];

  constructor(
    private readonly baseNs: bigint,
    /** When the instrumented processes started, before the scenario (cumulative start time). */
    private readonly processStartMs: number,
  ) {}

  observe(o: Observation): void {
    this.pending.push(o);
  }

  /** Folds observations up to `untilMs` in and returns one export's histogram metrics. */
  exportAt(untilMs: number): MetricPoint[] {
    this.pending.sort((a, b) => a.atMs - b.atMs);
    let taken = 0;
    for (const o of this.pending) {
      if (o.atMs > untilMs) break;
      taken++;
      const key = `${o.service.name}|${o.source}|${o.metric}|${JSON.stringify(o.attributes)}${o.instance === undefined ? '' : `|${o.instance}`}`;
      let s = this.series.get(key);
      if (!s) {
        const bounds = o.metric === 'http.server.duration' ? SDK_BOUNDS_MS : BEYLA_BOUNDS_S;
        s = { service: o.service, instance: o.instance, source: o.source, metric: o.metric, attributes: attributes(o.attributes), bounds, counts: new Array<number>(bounds.length + 1).fill(0), count: 0, sum: 0 };
        this.series.set(key, s);
      }
      s.counts[bucketOf(s.bounds, o.value)]++;
      s.count++;
      s.sum += o.value;
    }
    this.pending.splice(0, taken);
    const out: MetricPoint[] = [];
    for (const s of this.series.values()) {
      out.push({
        service: s.service,
        instance: s.instance,
        source: s.source,
        scope: s.source === 'ebpf' ? '' : 'frontend-metrics',
        metric: {
          name: s.metric,
          unit: UNITS[s.metric],
          histogram: {
            aggregationTemporality: 2,
            dataPoints: [{
              attributes: s.attributes,
              startTimeUnixNano: nanos(this.baseNs, this.processStartMs),
              timeUnixNano: nanos(this.baseNs, untilMs),
              count: String(s.count),
              sum: Math.round(s.sum * 1e6) / 1e6,
              bucketCounts: s.counts.map(String),
              explicitBounds: s.bounds,
            }],
          },
        },
      });
    }
    return out;
  }
}

export function gauge(name: string, unit: string, baseNs: bigint, atMs: number, value: number, attrs: Record<string, string> = {}): Record<string, unknown> {
  const point = Number.isInteger(value) ? { asInt: String(value) } : { asDouble: Math.round(value * 1e4) / 1e4 };
  return { name, unit, gauge: { dataPoints: [{ attributes: attributes(attrs), timeUnixNano: nanos(baseNs, atMs), ...point }] } };
}
