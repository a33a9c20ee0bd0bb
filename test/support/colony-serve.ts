import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export interface ServedColony {
  child: ChildProcess;
  /** Where it listens (OTLP/HTTP and /mcp), from its runtime file. */
  url: string;
  /** Its OTLP/gRPC address, from its runtime file (null with --no-otlp-grpc). */
  grpc: string | null;
  /** What it has written to stderr so far. */
  log: () => string;
}

/**
 * Starts `coral colony serve` (the built bundle) on random ports, with `env` over the test's, and
 * waits for the runtime file it writes once it listens, or fails with its log if it dies first.
 */
export async function startColonyServe(args: string[], runtimeFile: string, env: NodeJS.ProcessEnv): Promise<ServedColony> {
  const child = spawn(process.execPath, ['dist/coral.js', 'colony', 'serve', '--otlp-port', '0', '--otlp-grpc-port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  while (!existsSync(runtimeFile)) {
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(r, 50)).then(() => false)]);
    if (done) throw new Error(`colony serve did not start: ${log}`);
  }
  const rt = JSON.parse(readFileSync(runtimeFile, 'utf8')) as { url: string; otlpGrpc: string | null };
  return { child, url: rt.url, grpc: rt.otlpGrpc, log: () => log };
}

/** SIGTERM, then waits for it to exit (it closes its database first). */
export async function stopColonyServe(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
