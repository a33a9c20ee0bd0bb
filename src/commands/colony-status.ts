import { formatCount } from '../core/format.js';
import { nsToIso } from '../core/time.js';
import { type StoreOptions, openColonyFromOptions } from './colony-open.js';

/** `coral colony status`: counts per table and the service registry. */
export async function colonyStatus(opts: StoreOptions & { json?: boolean }): Promise<void> {
  const store = await openColonyFromOptions(opts);
  try {
    const counts = await store.counts();
    const services = await store.listServices();
    if (opts.json) {
      const out = {
        path: store.path,
        counts,
        services: services.map((s) => ({ ...s, firstSeen: nsToIso(s.firstSeenNs), lastSeen: nsToIso(s.lastSeenNs), firstSeenNs: undefined, lastSeenNs: undefined })),
      };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return;
    }
    const lines = [
      `colony ${store.path}`,
      `  spans ${formatCount(counts.spans)}, metric points ${formatCount(counts.numberPoints + counts.histogramPoints)} (${formatCount(counts.histogramPoints)} histogram), logs ${formatCount(counts.logs)}, events ${formatCount(counts.events)}`,
    ];
    if (services.length === 0) {
      lines.push('  no services yet: send OTLP to `coral colony serve` (port 4318).');
    } else {
      lines.push(`  ${services.length} services:`);
      const width = Math.max(...services.map((s) => s.serviceName.length));
      for (const s of services) {
        lines.push(`    ${s.serviceName.padEnd(width)}  ${s.sources.map((x) => (x === 'ebpf' ? '[eBPF]' : '[OTLP]')).join(' ').padEnd(13)}  last seen ${nsToIso(s.lastSeenNs)}`);
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}
