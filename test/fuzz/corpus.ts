// The seeds the mutators start from: the smallest real snapshots, and small generated ones.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tinySnapshot } from '../support/hostile-files';
import { tuple, type PickleValue } from '../../generators/pickle/pickle-values';
import { dumpToBytes, type PickleProtocol } from '../../generators/pickle/pickle-writer';
import type { Seed } from './mutators';
import { Prng } from './prng';
import { generateSnapshot } from './snapshot-generator';
import { snapshotToJson } from '../../generators/snapshot/json-form';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';

/** Where the real snapshots are (test/fixtures/real): the only place in the suite that knows. */
export function realSnapshotDir(): string | null {
  // Two levels below the repository root both here (test/fuzz) and in the built runner (out/fuzz).
  const dir = resolve(import.meta.dirname, '../..', 'test/fixtures/real');
  return existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.pickle')) ? dir : null;
}

/** The real snapshots no larger than maxBytes, smallest first, at most `count`. */
export function realSeeds(maxBytes: number, count: number): Seed[] {
  const dir = realSnapshotDir();
  if (dir === null) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.pickle'))
    .map((name) => ({ name, path: join(dir, name), size: statSync(join(dir, name)).size }))
    .filter((file) => file.size <= maxBytes)
    .sort((a, b) => a.size - b.size)
    .slice(0, count)
    .map((file) => ({ name: `real:${file.name}`, bytes: new Uint8Array(readFileSync(file.path)) }));
}

const MiB = 1 << 20;

/** Small generated snapshots covering the layouts and protocols the decoder reads. */
export function generatedSeeds(): Seed[] {
  const seeds: Seed[] = [{ name: 'tinySnapshot()', bytes: tinySnapshot() }];
  for (const protocol of [2, 3, 5] as PickleProtocol[]) {
    seeds.push({
      name: `tinySnapshot() protocol ${protocol}`,
      bytes: tinySnapshotAt(protocol),
    });
  }
  const rng = new Prng(20_260_808);
  for (let i = 0; i < 6; i++) {
    const generated = generateSnapshot(rng);
    seeds.push({
      name: `generated #${i} (protocol ${generated.protocol})`,
      bytes: dumpToBytes(generated.root as PickleValue, { protocol: generated.protocol }),
    });
  }
  // An OOM with expandable segments, and a bare segment list (very old files).
  seeds.push({
    name: 'oom with expandable segments',
    bytes: tinySnapshot((snapshot) => {
      const segments = snapshot.segments as Record<string, unknown>[];
      segments[0]!.is_expandable = true;
      const trace = (snapshot.device_traces as Record<string, unknown>[][])[0]!;
      trace.push({ action: 'oom', size: 64 * MiB, device_free: MiB, stream: 0, time_us: 1_005 });
      snapshot.allocator_settings = {
        expandable_segments: true,
        roundup_power2_divisions: [1, 2, 4],
      };
      snapshot.external_annotations = [
        { stage: 'START', name: 'ProfilerStep#1', device: 0, time_us: 1_000 },
        { stage: 'END', name: 'ProfilerStep#1', device: 0, time_us: 1_010 },
      ];
    }),
  });
  seeds.push({
    name: 'bare segment list',
    bytes: dumpToBytes([
      {
        device: 0,
        address: 0x7f0000000000,
        total_size: 2 * MiB,
        segment_type: 'large',
        segment_pool_id: tuple(0, 0),
        blocks: [
          { size: MiB, requested_size: 1000, state: 'active_allocated' },
          { size: MiB, state: 'inactive' },
        ],
      },
    ]),
  });
  // The newest fields (forward_frames, pool_id, FX frames, annotate, user_defined, unknown keys
  // and actions, pinned host memory), pickled and in the JSON form: the decoder's newest paths.
  const newest = makeNewestSnapshot({ seed: 20_261_124 }).value;
  seeds.push({ name: 'newest fields', bytes: dumpToBytes(newest) });
  seeds.push({ name: 'newest fields (protocol 5)', bytes: dumpToBytes(newest, { protocol: 5 }) });
  seeds.push({
    name: 'newest fields (JSON form)',
    bytes: new TextEncoder().encode(snapshotToJson(newest)),
  });
  return seeds;
}

/** tinySnapshot() written at another protocol. */
function tinySnapshotAt(protocol: PickleProtocol): Uint8Array {
  let value: unknown = null;
  tinySnapshot((snapshot) => {
    value = snapshot;
  });
  return dumpToBytes(value as PickleValue, { protocol });
}

export interface CorpusOptions {
  /** Largest real snapshot to use, and how many of them. */
  realMaxBytes: number;
  realCount: number;
  /** The small generated snapshots (generatedSeeds). */
  generated: boolean;
  /** Also generated files large enough to be decoded in parts (the oracle's parts check). */
  partsSeeds: boolean;
}

/**
 * quick: `npm test`'s; long: the campaigns'; parts: the long profile's mutations of the files a
 * decode in parts cuts, and only those (every case tries the parts check).
 */
export type FuzzProfileName = 'quick' | 'long' | 'parts';

export const CORPUS_OF_PROFILE: Record<FuzzProfileName, CorpusOptions> = {
  quick: { realMaxBytes: 64 * 1024, realCount: 3, generated: true, partsSeeds: false },
  long: { realMaxBytes: 200 * 1024, realCount: 5, generated: true, partsSeeds: true },
  parts: { realMaxBytes: 0, realCount: 0, generated: false, partsSeeds: true },
};

export function loadSeeds(options: CorpusOptions): Seed[] {
  return [
    ...realSeeds(options.realMaxBytes, options.realCount),
    ...(options.generated ? generatedSeeds() : []),
    ...(options.partsSeeds ? [partsSeed(4), partsSeed(5)] : []),
  ];
}

/**
 * A snapshot the plan cuts into 2 and 3 parts (generator 2, seed 1: 2 devices, 1.1 MB, 17
 * frames): every other seed fits one or two of the pickle's 64 KiB frames, and a decode in parts
 * needs trace entries across several, so without it the oracle's parts check would rarely run
 * (1 case in 400 laid out in parts; with these two, 1 in 35).
 */
function partsSeed(protocol: 4 | 5): Seed {
  const scratch = mkdtempSync(join(tmpdir(), 'allocscope-fuzz-seed-'));
  try {
    const path = join(scratch, 'parts.pickle');
    const generated = generateLargeSnapshot(path, 1_000_000, { seed: 1, protocol });
    return {
      name: `generated, cut into parts (${generated.devices.length} devices, protocol ${protocol})`,
      bytes: new Uint8Array(readFileSync(path)),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
