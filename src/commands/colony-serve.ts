import { parseIntOption } from '../core/args.js';
import { formatCount } from '../core/format.js';
import { type ExportReport, startReceiver } from '../colony/otlp/receiver.js';
import { type StoreOptions, openColonyFromOptions } from './colony-open.js';

interface ServeOptions extends StoreOptions {
  otlpHost: string;
  otlpPort: string;
  maxBodyMb: string;
}

const REPORT_EVERY_MS = 10_000;

/** `coral colony serve`: the OTLP/HTTP receiver in front of the colony store, until Ctrl-C. */
export async function colonyServe(opts: ServeOptions): Promise<void> {
  const port = parseIntOption('--otlp-port', opts.otlpPort, 0, 65535);
  const maxBodyBytes = parseIntOption('--max-body-mb', opts.maxBodyMb, 1, 1024) * 1024 * 1024;
  const store = await openColonyFromOptions(opts);
  const totals = { accepted: 0, rejected: 0, exports: 0 };
  let receiver;
  try {
    receiver = await startReceiver({
      sink: store,
      host: opts.otlpHost,
      port,
      maxBodyBytes,
      onExport: (e: ExportReport) => {
        totals.accepted += e.accepted;
        totals.rejected += e.rejected;
        totals.exports++;
      },
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const log = (line: string) => process.stderr.write(`coral colony: ${line}\n`);
  log(`colony ${store.path}`);
  log(`OTLP/HTTP listening on ${receiver.url} (/v1/traces, /v1/metrics, /v1/logs; JSON and protobuf, gzip)`);
  log('Ctrl-C to stop');
  let reported = { ...totals };
  const timer = setInterval(() => {
    if (totals.exports === reported.exports) return;
    log(
      `+${formatCount(totals.accepted - reported.accepted)} items in ${formatCount(totals.exports - reported.exports)} exports` +
        (totals.rejected > reported.rejected ? `, ${formatCount(totals.rejected - reported.rejected)} rejected` : '') +
        ` (total ${formatCount(totals.accepted)})`,
    );
    reported = { ...totals };
  }, REPORT_EVERY_MS);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(timer);
  log('stopping: finishing pending writes');
  await receiver.close();
  await store.close();
  log(`stopped; ${formatCount(totals.accepted)} items stored this run`);
}
