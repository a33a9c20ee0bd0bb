import { formatCount } from '../core/format.js';
import { jsonForTerminal, terminalSafeDeep } from '../core/terminal-text.js';
import { type AccessOptions, openColonyAccess } from './colony-access.js';

/** `coral colony status`: counts per table and the service registry, from the file or the running colony. */
export async function colonyStatus(opts: AccessOptions & { json?: boolean }): Promise<void> {
  const access = await openColonyAccess(opts);
  try {
    const found = await access.status();
    if (opts.json) {
      process.stdout.write(`${jsonForTerminal(access.remote ? { ...found, colony: access.describe } : found, 2)}\n`);
      return;
    }
    // Service names come from telemetry: shown, never acted on by the terminal.
    const status = terminalSafeDeep(found);
    const { counts, services } = status;
    const lines = [
      access.remote ? `colony ${access.describe} (serving ${status.path})` : `colony ${status.path}`,
      `  spans ${formatCount(counts.spans)}, metric points ${formatCount(counts.numberPoints + counts.histogramPoints)} (${formatCount(counts.histogramPoints)} histogram), logs ${formatCount(counts.logs)}, events ${formatCount(counts.events)}`,
    ];
    for (const note of status.notes ?? []) lines.push(`  ${note}`);
    if (services.length === 0) {
      lines.push('  no services yet: send OTLP to `coral colony serve` (OTLP/HTTP 4318, OTLP/gRPC 4317).');
    } else {
      lines.push(`  ${services.length} services:`);
      const width = Math.max(...services.map((s) => s.serviceName.length));
      for (const s of services) {
        lines.push(`    ${s.serviceName.padEnd(width)}  ${s.sources.map((x) => (x === 'ebpf' ? '[eBPF]' : '[OTLP]')).join(' ').padEnd(13)}  last seen ${s.lastSeen}`);
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await access.close();
  }
}
