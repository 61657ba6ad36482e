// Runs once before the unit tests: writes the synthetic snapshots (truth known by construction)
// into test/.generated, so tests never depend on large committed files.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

export const GENERATED_DIR = resolve(import.meta.dirname, '../.generated');

export default function setup(): void {
  // Build the CLI too: its tests run the real command, exit codes and all; then the page
  // template `allocscope html` writes from (after: the CLI's build empties out/cli).
  for (const config of ['vite.cli.config.ts', 'vite.html.config.ts'])
    execFileSync('npx', ['vite', 'build', '--config', config, '--logLevel', 'silent'], {
      cwd: resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'ignore', 'inherit'],
      // Vitest's NODE_ENV (test) would make the page template a development build of React.
      env: { ...process.env, NODE_ENV: 'production' },
    });
  rmSync(GENERATED_DIR, { recursive: true, force: true });
  mkdirSync(GENERATED_DIR, { recursive: true });
  execFileSync(
    'python3',
    [resolve(import.meta.dirname, '../generators/make_snapshots.py'), GENERATED_DIR],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}
