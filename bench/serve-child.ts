/**
 * A `coral colony serve` child process for the benches that need a real server (crash, load): the
 * built CLI (dist/coral.js, rebuilt first), timed from spawn until it says it listens.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Builds dist/coral.js from the sources, so that the child runs the code under test. */
export function buildCli(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('build failed');
}

/** The server's resident memory in MB, from /proc (Linux; 0 elsewhere). */
export function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : 0;
  } catch {
    return 0;
  }
}

export interface ServeChild {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn until the OTLP/HTTP listener was up. */
  listenMs: number;
  /** Resolves once the process has ended. */
  exited: Promise<void>;
}

/** Starts `coral colony serve --db FILE` on a free port, with `args` added; CORAL_HOME keeps its runtime file in `home`. */
export function startServe(db: string, home: string, args: string[] = []): Promise<ServeChild> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist/coral.js'), 'colony', 'serve', '--db', db, '--otlp-port', '0', '--no-otlp-grpc', ...args], {
    env: { ...process.env, CORAL_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /OTLP\/HTTP listening on (\S+)/.exec(err);
      if (m) {
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve({ child, url: m[1], listenMs: performance.now() - started, exited });
      }
    });
    child.once('exit', (code) => reject(new Error(`colony serve exited (${code}) before listening: ${err}`)));
  });
}
