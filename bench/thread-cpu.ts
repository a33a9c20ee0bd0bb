/**
 * CPU milliseconds of this process per kind of thread, from /proc/self/task (Linux; empty
 * elsewhere). Node 20 has no per-thread CPU clock and names every thread "node": `calibrateThreads`
 * finds libuv's pool threads (where the DuckDB bindings run every query) by keeping all of them busy
 * for a moment; the other threads besides the JS one are V8's (garbage-collector helpers,
 * compilers), or worker threads, which say their own ids (`noteWorkerThread`).
 */
import { pbkdf2 } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { promisify } from 'node:util';

/** USER_HZ, 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_S = 100;
/** libuv's default pool size (UV_THREADPOOL_SIZE). */
const POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

const pool = new Set<string>();
const workers = new Set<string>();

function ticksByThread(): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
      out.set(tid, utime + stime);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** Finds libuv's pool threads: the ones that do the work of POOL_SIZE key derivations run at once. */
export async function calibrateThreads(): Promise<void> {
  const before = ticksByThread();
  await Promise.all(Array.from({ length: POOL_SIZE }, () => promisify(pbkdf2)('x', 'y', 200_000, 32, 'sha256')));
  for (const [tid, ticks] of ticksByThread()) {
    if (tid !== String(process.pid) && ticks - (before.get(tid) ?? 0) >= 2) pool.add(tid);
  }
}

/** The ids of this process's threads now (empty off Linux). */
export function threadIds(): Set<string> {
  return new Set(ticksByThread().keys());
}

/** Counts thread `tid` as a worker thread's. */
export function noteWorkerThread(tid: string): void {
  workers.add(tid);
}

/** The calling thread's id, for `noteWorkerThread` (null off Linux). */
export function ownThreadId(): string | null {
  try {
    return readlinkSync('/proc/thread-self').split('/').pop() ?? null;
  } catch {
    return null;
  }
}

function kindOf(tid: string): string {
  if (tid === String(process.pid)) return 'js';
  if (workers.has(tid)) return 'worker_threads';
  if (pool.has(tid)) return 'libuv_pool_duckdb';
  return 'v8_platform_gc';
}

export function threadCpuMs(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [tid, ticks] of ticksByThread()) {
    const kind = kindOf(tid);
    out[kind] = (out[kind] ?? 0) + (ticks * 1000) / CLOCK_TICKS_PER_S;
  }
  return out;
}

/** CPU microseconds per span of each thread kind between two snapshots. */
export function threadCpuPerSpan(before: Record<string, number>, after: Record<string, number>, spans: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of Object.keys(after)) out[kind] = Math.round((((after[kind] - (before[kind] ?? 0)) * 1000) / spans) * 100) / 100;
  return out;
}
