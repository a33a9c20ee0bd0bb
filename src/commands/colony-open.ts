import { parseIntOption, parseMemoryLimit } from '../core/args.js';
import { defaultColonyDbPath } from '../core/paths.js';
import { ColonyStore } from '../colony/store/store.js';

export interface StoreOptions {
  db?: string;
  threads?: string;
  memoryLimit?: string;
}

/** Opens the colony named by --db (default ~/.coral/colony.duckdb) with the CLI's resource limits. */
export function openColonyFromOptions(opts: StoreOptions): Promise<ColonyStore> {
  return ColonyStore.open({
    path: opts.db ?? defaultColonyDbPath(),
    threads: opts.threads === undefined ? undefined : parseIntOption('--threads', opts.threads, 1, 256),
    memoryLimit: opts.memoryLimit === undefined ? undefined : parseMemoryLimit(opts.memoryLimit),
  });
}
