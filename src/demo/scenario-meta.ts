import type { GroundTruth } from './scenarios.js';

/** The metadata written beside each scenario's telemetry. */
export interface ScenarioMeta {
  name: string;
  story: string;
  seed: number;
  generatorVersion: number;
  /** When the file's hour starts, before any shift. */
  baseTime: string;
  durationSec: number;
  counts: { spans: number; metricPoints: number; logs: number; events: number; exports: number };
  /** SHA-256 of the uncompressed telemetry: what regenerating must reproduce. */
  sha256: string;
  truth: GroundTruth;
  /**
   * The compressed size of each gzip member of the telemetry file, oldest first (written by
   * writeScenarioFiles): the newest exports can be inflated without the rest. Absent: one member.
   */
  members?: number[];
}
