// The benchmark's input files, generated once into bench/.data (git-ignored) and reused while
// the generator and its settings stay the same; a sidecar JSON file records those.

import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchSize } from './bench-options';
import {
  generateLargeSnapshot,
  GENERATOR_VERSION,
  type GenerateResult,
} from '../generators/snapshot/generate-large-snapshot';

const SEED = 1;

export interface BenchInput {
  readonly size: BenchSize;
  readonly path: string;
  readonly bytes: number;
  /** Seconds spent generating it now; null when an earlier file was reused. */
  readonly generatedSeconds: number | null;
  /** A generated snapshot's shape (a profiler trace has none: bench/trace-bench.ts). */
  readonly shape?: InputShape;
}

/**
 * What the file holds, as real snapshots are described (issue 25): every figure of a bench is
 * read beside it (real files: 30-70 frames per entry, two thirds of frames lists new).
 */
export interface InputShape {
  devices: number;
  traceEntries: number;
  /** Frames of the entries' stacks, over the entries. */
  framesPerEntry: number;
  /** Entries whose frames list is new in the file (the rest: memo references to earlier ones). */
  newFrameListShare: number;
  stacks: number;
  distinctFrames: number;
}

interface Sidecar {
  generator: number;
  seed: number;
  targetBytes: number;
  /** Recorded as the file was written (absent in files of earlier benches: written again). */
  shape?: InputShape;
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
  const shape = existsSync(path) ? shapeIfSidecarMatches(sidecarPath, wanted) : null;
  if (shape !== null)
    return { size, path, bytes: statSync(path).size, generatedSeconds: null, shape };
  rmSync(sidecarPath, { force: true });
  log(`generating ${path} (${(size.bytes / 1e6).toFixed(0)} MB)...`);
  const result = generateLargeSnapshot(path, size.bytes, { seed: SEED });
  const generated = shapeOf(result);
  writeFileSync(sidecarPath, `${JSON.stringify({ ...wanted, shape: generated })}\n`);
  log(
    `  ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s: ${generated.traceEntries} trace entries on ` +
      `${result.devices.length} devices, ${result.segments} segments, ${result.stacks} stacks`,
  );
  return { size, path, bytes: result.bytes, generatedSeconds: result.seconds, shape: generated };
}

export function shapeOf(result: GenerateResult): InputShape {
  const sum = (field: 'traceEntries' | 'frames' | 'newFrameLists'): number =>
    result.devices.reduce((total, device) => total + device[field], 0);
  const entries = sum('traceEntries');
  return {
    devices: result.devices.length,
    traceEntries: entries,
    framesPerEntry: entries === 0 ? 0 : sum('frames') / entries,
    newFrameListShare: entries === 0 ? 0 : sum('newFrameLists') / entries,
    stacks: result.stacks,
    distinctFrames: result.distinctFrames,
  };
}

/** The recorded shape where the sidecar names this generator, seed and size; else null. */
function shapeIfSidecarMatches(path: string, wanted: Sidecar): InputShape | null {
  try {
    const found = JSON.parse(readFileSync(path, 'utf8')) as Partial<Sidecar>;
    const matches =
      found.generator === wanted.generator &&
      found.seed === wanted.seed &&
      found.targetBytes === wanted.targetBytes;
    return matches ? (found.shape ?? null) : null;
  } catch {
    return null;
  }
}

/** The inputs' shapes, printed beside every bench's figures. */
export function formatInputShapes(inputs: readonly BenchInput[]): string {
  const lines = [
    'the inputs (generated, seed 1): what each figure above was measured on',
    '| input | file MB | devices | trace entries | frames per entry | new frames lists | stacks | distinct frames |',
    '| ----- | ------- | ------- | ------------- | ---------------- | ---------------- | ------ | --------------- |',
  ];
  for (const { size, bytes, shape } of inputs) {
    if (shape === undefined) continue;
    lines.push(
      `| ${size.label} | ${(bytes / 1e6).toFixed(1)} | ${shape.devices} | ${shape.traceEntries} | ${shape.framesPerEntry.toFixed(1)} | ${(shape.newFrameListShare * 100).toFixed(0)}% | ${shape.stacks} | ${shape.distinctFrames} |`,
    );
  }
  return lines.join('\n');
}
