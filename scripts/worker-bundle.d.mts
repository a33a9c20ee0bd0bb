/** A worker thread's code as one CommonJS text (scripts/worker-bundle.mjs). */
export function bundleWorker(entry: string): Promise<string>;
