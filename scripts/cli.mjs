// `npm run cli -- ARGS`: runs the built CLI (out/cli), building it first only when it is missing
// or older than its sources. Scripts start many at once: one process builds, under a lock, while
// the others wait for it; then every one runs the same build (rebuilding on every call made
// parallel runs delete each other's files mid-run).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = resolve(import.meta.dirname, '..');
const bundle = join(root, 'out/cli/allocscope.js');
const lock = join(root, 'out/.cli-build-lock');
const SOURCES = [
  'src/shared',
  'src/cli',
  'bench',
  'generators',
  'scripts/make-demo-snapshot.ts',
  'vite.cli.config.ts',
  'package.json',
];
/** A lock older than this was left by a build that died: take it over. */
const STALE_LOCK_MS = 5 * 60_000;

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

function newestSource(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestSource(join(path, entry)));
  return newest;
}

function isStale() {
  const built = mtimeOf(bundle);
  return built < 0 || SOURCES.some((source) => newestSource(join(root, source)) > built);
}

function tryLock() {
  mkdirSync(join(root, 'out'), { recursive: true });
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    if (Date.now() - mtimeOf(lock) > STALE_LOCK_MS) {
      rmdirSync(lock, { recursive: true });
      return tryLock();
    }
    return false;
  }
}

async function ensureBuilt() {
  while (isStale()) {
    if (!tryLock()) {
      await sleep(100);
      continue;
    }
    try {
      if (!isStale()) return;
      const build = spawnSync(
        'npx',
        ['vite', 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'silent'],
        { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
      );
      if (build.status !== 0) {
        process.stderr.write('allocscope: building the CLI failed (npm run build:cli shows why)\n');
        process.exit(1);
      }
    } finally {
      rmdirSync(lock, { recursive: true });
    }
  }
}

await ensureBuilt();
await import(bundle);
