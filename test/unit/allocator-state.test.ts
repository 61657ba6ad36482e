// The allocator state reconstructed at any moment, on the 12 real snapshots and the generated
// ones: at the last event it is the file's final `segments` (read independently by CPython), and
// at every sampled moment it is consistent (blocks tile their segment) and adds up to the curves.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BlockKind,
  createAllocatorStateIndex,
  type AllocatorState,
} from '@shared/state/allocator-state';
import { figuresByGroup, figuresOfState, smallHoleThreshold } from '@shared/state/memory-figures';
import { SegmentTypeCode } from '@shared/analysis/segment-history';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { loadAnalyzedSnapshot } from '../../src/cli/load-analyzed-snapshot';
import { GENERATED_DIR } from '../setup/global-setup';
import { realSnapshotPaths } from '../support/real-snapshots';
import { referenceStates } from '../support/state-reference';

/** Files whose final state does not match their trace (the state must still be well formed). */
const INCONSISTENT = new Set(['drisspg_transformer_nuggets__test__data__mini_snapshot.pickle']);

const REFERENCE = resolve(import.meta.dirname, '../reference/final_segments_reference.py');

interface ReferenceSegment {
  address: number;
  total_size: number;
  stream: number;
  pool: string;
  type: string;
  expandable: boolean;
  blocks: [number, number, number, string][];
}

function referenceFinalSegments(path: string): Record<string, ReferenceSegment[]> {
  const output = execFileSync('python3', [REFERENCE, path], { maxBuffer: 1 << 28 });
  return JSON.parse(output.toString('utf8')) as Record<string, ReferenceSegment[]>;
}

function generatedPaths(): string[] {
  const manifest = JSON.parse(readFileSync(join(GENERATED_DIR, 'manifest.json'), 'utf8')) as {
    file: string;
  }[];
  return manifest.map((entry) => join(GENERATED_DIR, entry.file));
}

const KIND_OF_STATE: Record<string, number> = {
  active_allocated: BlockKind.allocated,
  active_pending_free: BlockKind.pendingFree,
  inactive: BlockKind.free,
};
const TYPE_NAMES = ['large', 'small', 'unknown'];

function describeState(snapshot: AnalyzedSnapshot, state: AllocatorState): ReferenceSegment[] {
  return state.segments.map((segment) => {
    const blocks: [number, number, number, string][] = [];
    for (let b = segment.firstBlock; b < segment.endBlock; b++) {
      const kind = state.blocks.kind[b]!;
      blocks.push([
        state.blocks.address[b]!,
        state.blocks.sizeBytes[b]!,
        state.blocks.requestedBytes[b]!,
        Object.keys(KIND_OF_STATE).find((name) => KIND_OF_STATE[name] === kind)!,
      ]);
    }
    return {
      address: segment.address,
      total_size: segment.sizeBytes,
      stream: snapshot.streams[segment.streamId]!,
      pool: snapshot.pools[segment.poolIndex]!,
      type: TYPE_NAMES[segment.segmentType]!,
      expandable: segment.isExpandable,
      blocks,
    };
  });
}

/** Inactive blocks have no requested size in our model (0); the file may carry the last one. */
function withoutFreeRequests(segments: ReferenceSegment[]): ReferenceSegment[] {
  return segments.map((segment) => ({
    ...segment,
    blocks: segment.blocks.map(([address, size, requested, state]) => [
      address,
      size,
      state === 'inactive' ? 0 : requested,
      state,
    ]),
  }));
}

function sampledMoments(device: AnalyzedDevice): number[] {
  const last = device.traceLength - 1;
  const moments = new Set([-1, last, device.figures.active.peakEventIndex ?? -1]);
  for (let i = 0; i <= 40; i++) moments.add(Math.round(-1 + ((last + 1) * i) / 40));
  for (const oom of device.ooms) moments.add(oom.eventIndex);
  return [...moments].filter((m) => m >= -1 && m <= last);
}

function curveAt(device: AnalyzedDevice, curve: 'active' | 'reserved', moment: number): number {
  if (moment >= 0) return (curve === 'active' ? device.activeBytes : device.reservedBytes)[moment]!;
  return curve === 'active'
    ? device.figures.active.baselineBytes
    : device.figures.reserved.baselineBytes;
}

/** Brute force over the block columns alone (not the segments' block ranges). */
function bruteForceFreeFigures(state: AllocatorState, threshold: number) {
  let cached = 0;
  let largest = 0;
  let count = 0;
  let small = 0;
  for (let b = 0; b < state.blocks.count; b++) {
    if (state.blocks.kind[b] !== BlockKind.free) continue;
    const size = state.blocks.sizeBytes[b]!;
    cached += size;
    count++;
    largest = Math.max(largest, size);
    if (size < threshold) small += size;
  }
  return { cached, largest, count, small };
}

const files = [...realSnapshotPaths(), ...generatedPaths()];

describe.each(files.map((path) => [basename(path), path]))(
  'allocator state of %s',
  (name, path) => {
    it('equals the final segments at the last event', async () => {
      const snapshot = await loadAnalyzedSnapshot(path);
      const reference = referenceFinalSegments(path);
      for (const device of snapshot.devices) {
        const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
        const state = index.stateAt(device.traceLength - 1);
        const expected = withoutFreeRequests(reference[String(device.device)] ?? []);
        const ours = describeState(snapshot, state);
        if (INCONSISTENT.has(name)) {
          // Its trace keeps blocks alive that the final state lists as free: the segments
          // agree, the blocks follow the trace.
          const extents = (list: ReferenceSegment[]) => list.map(({ blocks: _b, ...rest }) => rest);
          expect(extents(ours), `device ${device.device}`).toEqual(extents(expected));
          continue;
        }
        expect(ours, `device ${device.device}`).toEqual(expected);
        expect(state.outsideSegments).toEqual([]);
      }
    });

    it('is consistent at sampled moments and adds up to the curves', async () => {
      const snapshot = await loadAnalyzedSnapshot(path);
      const consistent = !INCONSISTENT.has(name);
      for (const device of snapshot.devices) {
        const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
        const threshold = smallHoleThreshold(device);
        for (const moment of sampledMoments(device)) {
          const state = index.stateAt(moment);
          const where = `device ${device.device} after event ${moment}`;
          let previousEnd = -Infinity;
          let reserved = 0;
          let active = 0;
          for (const segment of state.segments) {
            expect(segment.address, where).toBeGreaterThanOrEqual(previousEnd);
            previousEnd = segment.address + segment.sizeBytes;
            reserved += segment.sizeBytes;
            let cursor = segment.address;
            for (let b = segment.firstBlock; b < segment.endBlock; b++) {
              expect(state.blocks.address[b], where).toBe(cursor);
              expect(state.blocks.sizeBytes[b], where).toBeGreaterThan(0);
              if (b > segment.firstBlock && state.blocks.kind[b] === BlockKind.free) {
                expect(state.blocks.kind[b - 1], `${where}: adjacent holes`).not.toBe(
                  BlockKind.free,
                );
              }
              cursor += state.blocks.sizeBytes[b]!;
              active += state.blocks.requestedBytes[b]!;
            }
            expect(cursor, where).toBe(previousEnd);
          }
          for (const row of state.outsideSegments) active += device.allocations.sizeBytes[row]!;
          expect(reserved, `${where}: reserved`).toBe(curveAt(device, 'reserved', moment));
          expect(active, `${where}: active`).toBe(curveAt(device, 'active', moment));
          if (consistent) {
            expect(state.outsideSegments, where).toEqual([]);
            expect(state.clippedBlocks, where).toBe(0);
          }

          const figures = figuresOfState(state, threshold);
          const brute = bruteForceFreeFigures(state, threshold);
          expect(figures.cachedFreeBytes).toBe(brute.cached);
          expect(figures.largestFreeBytes).toBe(brute.largest);
          expect(figures.freeBlockCount).toBe(brute.count);
          expect(figures.smallFreeBytes).toBe(brute.small);
          expect(figures.reservedBytes).toBe(reserved);
          const groups = figuresByGroup(state, threshold);
          expect(groups.reduce((sum, g) => sum + g.cachedFreeBytes, 0)).toBe(brute.cached);
          expect(groups.reduce((sum, g) => sum + g.freeBlockCount, 0)).toBe(brute.count);
          expect(Math.max(0, ...groups.map((g) => g.largestFreeBytes))).toBe(brute.largest);
          for (const group of groups) {
            expect(Object.values(SegmentTypeCode)).toContain(group.segmentType);
          }
        }
      }
    });

    it('equals a step-by-step undo of the trace (independent Python) at sampled moments', async () => {
      if (INCONSISTENT.has(name)) return; // the undo walk and the trace disagree by construction
      const snapshot = await loadAnalyzedSnapshot(path);
      for (const device of snapshot.devices) {
        if (device.traceLength === 0) continue;
        const moments = sampledMoments(device).filter((_, i) => i % 5 === 0);
        const expected = referenceStates(path, device.device, moments);
        const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
        const threshold = smallHoleThreshold(device);
        for (const reference of expected) {
          const state = index.stateAt(reference.event);
          const where = `device ${device.device} after event ${reference.event}`;
          const figures = figuresOfState(state, threshold);
          expect(
            {
              reserved: figures.reservedBytes,
              active: figures.activeBytes,
              blockBytes: figures.blockBytes,
              cachedFree: figures.cachedFreeBytes,
              largestFree: figures.largestFreeBytes,
              freeBlocks: figures.freeBlockCount,
            },
            where,
          ).toEqual({
            reserved: reference.reserved,
            active: reference.active,
            blockBytes: reference.block_bytes,
            cachedFree: reference.cached_free,
            largestFree: reference.largest_free,
            freeBlocks: reference.free_blocks,
          });
          const live: { address: number; requested: number; size: number; state: string }[] = [];
          for (let b = 0; b < state.blocks.count; b++) {
            const kind = state.blocks.kind[b];
            if (kind === BlockKind.free) continue;
            live.push({
              address: state.blocks.address[b]!,
              requested: state.blocks.requestedBytes[b]!,
              size: state.blocks.sizeBytes[b]!,
              state: kind === BlockKind.pendingFree ? 'pending' : 'allocated',
            });
          }
          const byAddress = (a: { address: number }, b: { address: number }) =>
            a.address - b.address;
          expect(live.sort(byAddress), where).toEqual([...reference.live].sort(byAddress));
        }
      }
    });
  },
);
