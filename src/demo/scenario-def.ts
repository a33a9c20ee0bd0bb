import type { EventKind } from '../colony/store/rows.js';
import type { Flag, ServiceFault } from './conditions.js';
import type { FleetDef } from './fleet.js';
import type { InstrumentationOverride } from './instrument.js';

/** What an incident scenario declares: its faults over the hour, its events and its ground truth. */
export interface FlagWindow {
  flag: Flag | ServiceFault;
  startSec: number;
  /** Intensity at full strength, 0..1 (for paymentFailure: the share of charges that fail). */
  level: number;
  /** Seconds to ramp from 0 to `level`; absent means at once. */
  rampSec?: number;
  /** A sawtooth: the intensity climbs to `level` over each cycle, then starts again (a leak and its restarts). */
  cycleSec?: number;
}

export interface DemoEvent {
  atSec: number;
  service: string;
  kind: EventKind;
  title: string;
  attributes: Record<string, string>;
}

export interface AffectedOperation {
  service: string;
  /** An HTTP route as the SDK spells it, or a gRPC method, or a messaging operation. */
  route?: string;
  method?: string;
  rpcMethod?: string;
  operation?: string;
  /** The one pod at fault, when the fault is one instance's. */
  pod?: string;
}

export interface GroundTruth {
  /** Services where the fault is; empty for a healthy hour. */
  culprits: string[];
  symptom: 'none' | 'errors' | 'latency' | 'backlog' | 'saturation';
  /** Seconds from the scenario's start when the fault begins; null when there is none. */
  startSec: number | null;
  affected: AffectedOperation[];
  /** What a good investigation concludes, in a sentence. */
  summary: string;
}

/** What kind of incident a scenario holds, for the evaluation's per-kind report. */
export type IncidentKind =
  | 'none' | 'leaf-latency' | 'service-errors' | 'operation-bug' | 'memory-leak' | 'two-faults' | 'queue-flood'
  | 'bad-instance' | 'config-push' | 'consumer-lag' | 'noisy-neighbour' | 'error-cascade' | 'sampled-slow' | 'silent-callee';

export interface ScenarioDef {
  name: string;
  kind: IncidentKind;
  story: string;
  seed: number;
  /** Average edge requests per second; the traffic shape varies around it. */
  ratePerSec: number;
  flags: FlagWindow[];
  events: DemoEvent[];
  truth: GroundTruth;
  /** Per service, how its instrumentation departs from the world's defaults in this scenario. */
  instrumentation?: Record<string, InstrumentationOverride>;
  /** Several instances per service on shared nodes (fleet.ts); without it, one process per service. */
  fleet?: FleetDef;
  /** A random service graph drawn from this seed (topology.ts) instead of the Astronomy Shop. */
  topology?: { seed: number };
}
