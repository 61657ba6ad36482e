// Runs a command to completion and measures it from the outside: wall time, and peak resident
// memory through GNU time (`/usr/bin/time -f %M`, in KiB) when it is installed, since a process's
// own report of its peak can miss memory outside the JS heap or after its last sample.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';

export interface Measured {
  /** null when killed by a signal. */
  readonly status: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  /** Without GNU time's own line. */
  readonly stderr: string;
  readonly wallSeconds: number;
  /** From GNU time; null when it is not installed or printed nothing usable. */
  readonly maxRssBytes: number | null;
  readonly error?: Error;
}

export function runMeasured(command: string, args: readonly string[], cwd?: string): Measured {
  const useTime = existsSync(GNU_TIME);
  const file = useTime ? GNU_TIME : command;
  const fileArgs = useTime ? ['-f', '%M', command, ...args] : [...args];
  const started = performance.now();
  const result = spawnSync(file, fileArgs, { cwd, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const wallSeconds = (performance.now() - started) / 1000;
  let stderr = result.stderr ?? '';
  let maxRssBytes: number | null = null;
  if (useTime) {
    // GNU time appends its line last (after "Command exited with non-zero status N" on failure).
    const lines = stderr.replace(/\n$/, '').split('\n');
    const last = lines[lines.length - 1] ?? '';
    if (/^\d+$/.test(last)) {
      maxRssBytes = Number(last) * 1024;
      lines.pop();
      if (
        /^Command (exited with non-zero status|terminated by signal)/.test(
          lines[lines.length - 1] ?? '',
        )
      )
        lines.pop();
      stderr = lines.length > 0 ? `${lines.join('\n')}\n` : '';
    }
  }
  return {
    status: result.status,
    signal: result.signal,
    stdout: result.stdout ?? '',
    stderr,
    wallSeconds,
    maxRssBytes,
    ...(result.error !== undefined ? { error: result.error } : {}),
  };
}
