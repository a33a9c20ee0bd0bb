/**
 * A worker thread's code for `new Worker(source, { eval: true })`: `bundled`, the worker's code that
 * the built CLI carries (scripts/build.mjs defines it), or else, running from TypeScript sources
 * (tests, development), an import of `entry` through tsx, as the sources were loaded here.
 */
export function workerSource(bundled: string | undefined, entry: URL): string {
  if (bundled !== undefined) return bundled;
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
}
