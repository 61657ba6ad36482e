// Runs the built `allocscope` command (the global setup builds it) as a user would.

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI_PATH = resolve(import.meta.dirname, '../../out/cli/allocscope.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[]): CliRun {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    // Documents about files with megabyte-long frame names are megabytes long (the default: 1 MB).
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
