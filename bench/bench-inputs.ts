// The benchmark's input files, generated once into bench/.data (git-ignored) and reused while
// the generator and its settings stay the same; a sidecar JSON file records those.

import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchSize } from './bench-options';
import {
  generateLargeSnapshot,
  GENERATOR_VERSION,
} from '../generators/snapshot/generate-large-snapshot';

const SEED = 1;

export interface BenchInput {
  readonly size: BenchSize;
  readonly path: string;
  readonly bytes: number;
  /** Seconds spent generating it now; null when an earlier file was reused. */
  readonly generatedSeconds: number | null;
}

interface Sidecar {
  generator: number;
  seed: number;
  targetBytes: number;
}

export function benchInputPath(dataDir: string, size: BenchSize): string {
  return join(dataDir, `snapshot-${size.label}.pickle`);
}

export function ensureBenchInput(
  dataDir: string,
  size: BenchSize,
  log: (line: string) => void,
): BenchInput {
  const path = benchInputPath(dataDir, size);
  const sidecarPath = `${path}.json`;
  const wanted: Sidecar = { generator: GENERATOR_VERSION, seed: SEED, targetBytes: size.bytes };
  if (existsSync(path) && sidecarMatches(sidecarPath, wanted)) {
    return { size, path, bytes: statSync(path).size, generatedSeconds: null };
  }
  rmSync(sidecarPath, { force: true });
  log(`generating ${path} (${(size.bytes / 1e6).toFixed(0)} MB)...`);
  const result = generateLargeSnapshot(path, size.bytes, { seed: SEED });
  writeFileSync(sidecarPath, `${JSON.stringify(wanted)}\n`);
  const entries = result.devices.reduce((sum, d) => sum + d.traceEntries, 0);
  log(
    `  ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s: ${entries} trace entries on ` +
      `${result.devices.length} devices, ${result.segments} segments, ${result.stacks} stacks`,
  );
  return { size, path, bytes: result.bytes, generatedSeconds: result.seconds };
}

function sidecarMatches(path: string, wanted: Sidecar): boolean {
  try {
    const found = JSON.parse(readFileSync(path, 'utf8')) as Partial<Sidecar>;
    return (
      found.generator === wanted.generator &&
      found.seed === wanted.seed &&
      found.targetBytes === wanted.targetBytes
    );
  } catch {
    return false;
  }
}
