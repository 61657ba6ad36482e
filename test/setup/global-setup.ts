// Runs once before the unit tests: writes the synthetic snapshots (truth known by construction)
// into test/.generated, so tests never depend on large committed files.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

export const GENERATED_DIR = resolve(import.meta.dirname, '../.generated');

export default function setup(): void {
  const root = resolve(import.meta.dirname, '../..');
  // `npm test` builds everything first (ALLOCSCOPE_BUILT=1): not again here, a minute of CI.
  if (process.env['ALLOCSCOPE_BUILT'] !== '1') buildForTests(root);
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

/** The CLI, the html page template and the web build, as the unit tests run them. */
function buildForTests(root: string): void {
  // Vitest's NODE_ENV (test) would make the page builds a development build of React.
  const env = { ...process.env, NODE_ENV: 'production' };
  // Build the CLI too: its tests run the real command, exit codes and all; then the page
  // template `allocscope html` writes from (after: the CLI's build empties out/cli).
  for (const config of ['vite.cli.config.ts', 'vite.html.config.ts'])
    execFileSync('npx', ['vite', 'build', '--config', config, '--logLevel', 'silent'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
  // `allocscope serve` hands out the web build, and the packed package carries it: built when
  // missing.
  if (!existsSync(resolve(root, 'out/web/index.html')))
    execFileSync(
      'npx',
      ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'silent'],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env,
      },
    );
}
