import { deprecatedMetricsTools, ebpfMetricsTools, queryMetrics } from './metrics.js';
import { deprecatedBeylaTraces, ebpfTraces, getTraceById, queryTraces, telemetrySpans } from './traces.js';
import { summaryTool } from './summary.js';
import { breakdownTool } from './breakdown.js';
import { timeseriesTool } from './timeseries.js';
import { eventsTool, serviceHealthTool, topologyTool } from './services.js';
import { telemetryLogsTool, telemetryMetricsTool } from './telemetry.js';
import type { ToolDef } from './types.js';

/** Porcelain first: what an LLM should reach for. */
export const PORCELAIN_TOOLS: readonly ToolDef[] = [summaryTool, queryMetrics, queryTraces, breakdownTool, timeseriesTool];

export const PLUMBING_TOOLS: readonly ToolDef[] = [
  ...ebpfMetricsTools,
  ebpfTraces,
  getTraceById,
  telemetrySpans,
  telemetryMetricsTool,
  telemetryLogsTool,
  serviceHealthTool,
  topologyTool,
  eventsTool,
];

/** Old names (coral_query_beyla_*): they still answer, with a deprecation line, but are listed only when enabled. */
export const DEPRECATED_TOOLS: readonly ToolDef[] = [...deprecatedMetricsTools, deprecatedBeylaTraces];

export const ALL_TOOLS: readonly ToolDef[] = [...PORCELAIN_TOOLS, ...PLUMBING_TOOLS, ...DEPRECATED_TOOLS];

export function toolByName(name: string): ToolDef | undefined {
  return ALL_TOOLS.find((t) => t.name === name);
}
