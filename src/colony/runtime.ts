import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Where a running `coral colony serve` listens, recorded next to its database so that every other
 * command can use it over its API instead of fighting for DuckDB's file lock. The file holds no
 * secret: a token, when the colony requires one, is in a separate file readable by its owner only.
 */
const runtimeSchema = z.object({
  pid: z.number().int(),
  db: z.string(),
  /** Base URL of OTLP/HTTP and, unless --no-mcp, of /mcp. */
  url: z.string(),
  mcp: z.boolean(),
  otlpGrpc: z.string().nullable(),
  tokenFile: z.string().nullable(),
  startedAt: z.string(),
});

export type ColonyRuntime = z.infer<typeof runtimeSchema>;

export function runtimePath(db: string): string {
  return `${db}.serve.json`;
}

export function tokenPath(db: string): string {
  return `${db}.token`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records the running colony; returns the function that removes the record when it stops. */
export function writeRuntime(info: Omit<ColonyRuntime, 'tokenFile' | 'pid' | 'startedAt'>, token: string | undefined): () => void {
  const tokenFile = token ? tokenPath(info.db) : null;
  if (tokenFile && token) {
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    // The mode above applies only when the file is created: tighten a leftover one too.
    chmodSync(tokenFile, 0o600);
  }
  const record: ColonyRuntime = { ...info, pid: process.pid, tokenFile, startedAt: new Date().toISOString() };
  const path = runtimePath(info.db);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, path);
  return () => {
    const current = readRuntimeFile(info.db);
    if (current && current.pid !== process.pid) return;
    rmSync(path, { force: true });
    if (tokenFile) rmSync(tokenFile, { force: true });
  };
}

function readRuntimeFile(db: string): ColonyRuntime | null {
  const path = runtimePath(db);
  if (!existsSync(path)) return null;
  try {
    const r = runtimeSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The colony serving this database file, if one is running (a record left by a crash is ignored). */
export function readLiveRuntime(db: string): ColonyRuntime | null {
  const rt = readRuntimeFile(db);
  return rt && isAlive(rt.pid) ? rt : null;
}

export function readRuntimeToken(rt: ColonyRuntime): string | undefined {
  if (!rt.tokenFile) return undefined;
  try {
    return readFileSync(rt.tokenFile, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
