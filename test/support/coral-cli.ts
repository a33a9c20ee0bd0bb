import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `coral` bundle with this environment on top of the test's; resolves with its output whatever the exit code. */
export function coralCli(env: NodeJS.ProcessEnv, timeoutMs = 90_000): (...args: string[]) => Promise<CliResult> {
  return async (...args) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, ...env }, timeout: timeoutMs });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as CliResult;
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
}
