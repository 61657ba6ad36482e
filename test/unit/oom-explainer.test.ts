// The OOM explainer's figures and verdicts: on the real OOM snapshot (device 1 of
// Constructor-Sun, expandable segments on) against an independent Python reconstruction of the
// state, and on generated OOMs of both kinds (fragmentation, truly full) against what the
// allocator simulation itself held at the failed request (test/generators/make_snapshots.py).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { explainOoms, explainPeak, holdersOf } from '@shared/oom/oom-explainer';
import type { OomExplanation } from '@shared/oom/oom-explanation';
import { createAllocatorStateIndex } from '@shared/state/allocator-state';
import { figuresOfState, smallHoleThreshold } from '@shared/state/memory-figures';
import { formatBytes } from '@shared/format/units';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { loadAnalyzedSnapshot } from '../../src/cli/load-analyzed-snapshot';
import { GENERATED_DIR } from '../setup/global-setup';
import { realSnapshotPath } from '../support/real-snapshots';
import { referenceStates, type ReferenceState } from '../support/state-reference';

function explain(snapshot: AnalyzedSnapshot, device: number): OomExplanation[] {
  const deviceIndex = snapshot.devices.findIndex((d) => d.device === device);
  const index = createAllocatorStateIndex(
    snapshot.devices[deviceIndex]!,
    snapshot.allocatorSettings,
  );
  return explainOoms(snapshot, deviceIndex, index);
}

/** The reference's figures of the group (default pool, stream, segment type). */
function referenceGroup(state: ReferenceState, stream: number, type: string) {
  return (
    state.groups.find(
      (g) => g.pool === '0,0' && g.stream === stream && g.segment_type === type,
    ) ?? {
      cached_free: 0,
      largest_free: 0,
    }
  );
}

describe('the Python state reference', () => {
  it('passes its own hand-worked tests', () => {
    const script = resolve(import.meta.dirname, '../reference/test_state_reference.py');
    expect(() => execFileSync('python3', [script], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('the real OOM: Constructor-Sun device 1', () => {
  const path = realSnapshotPath('Constructor-Sun');
  let snapshot: AnalyzedSnapshot;
  let explanations: OomExplanation[];
  let reference: ReferenceState;

  beforeAll(async () => {
    snapshot = await loadAnalyzedSnapshot(path);
    explanations = explain(snapshot, 1);
    reference = referenceStates(path, 1, [421])[0]!;
  });

  it('finds the one oom entry with its request and device_free', () => {
    expect(explanations).toHaveLength(1);
    const oom = explanations[0]!;
    expect(oom.device).toBe(1);
    expect(oom.event).toBe(421);
    expect(oom.requestedBytes).toBe(5308694528);
    expect(oom.roundedRequestBytes).toBe(5308694528); // already a multiple of 512
    expect(oom.deviceFreeBytes).toBe(95682560);
    expect(oom.timeUs).toBe(1757253257949855);
    expect(oom.pool).toBe('0,0');
    expect(oom.stream).toBe(0);
    expect(oom.segmentType).toBe('large');
  });

  it('has the figures of an independent brute-force reconstruction of the state', () => {
    const oom = explanations[0]!;
    expect(oom.reservedBytes).toBe(reference.reserved);
    expect(oom.activeBytes).toBe(reference.active);
    expect(oom.cachedFreeBytes).toBe(reference.cached_free);
    expect(oom.largestFreeBytes).toBe(reference.largest_free);
    const group = referenceGroup(reference, 0, 'large');
    expect(oom.poolCachedFreeBytes).toBe(group.cached_free);
    expect(oom.poolLargestFreeBytes).toBe(group.largest_free);
    // and the figures agree with the curves at that moment
    const device = snapshot.devices.find((d) => d.device === 1)!;
    expect(oom.activeBytes).toBe(device.activeBytes[421]);
    expect(oom.reservedBytes).toBe(device.reservedBytes[421]);
  });

  it('says out of memory, and does not suggest expandable segments (already on)', () => {
    const oom = explanations[0]!;
    expect(oom.expandableSegments).toBe(true);
    // 78.3 GiB live of 78.4 GiB reserved; 133 MiB cached free + 91 MiB free < 4.9 GiB
    expect(oom.verdict).toBe('out-of-memory');
    expect(oom.verdictText).toMatch(/^Out of memory: live tensors hold /);
    expect(oom.verdictText).toContain(formatBytes(oom.activeBytes));
    expect(oom.verdictText).toContain(formatBytes(oom.reservedBytes + oom.deviceFreeBytes!));
    expect(oom.verdictText).not.toMatch(/expandable_segments/);
  });

  it('ranks the live allocations by stack, and they add up to the active bytes', () => {
    const oom = explanations[0]!;
    expect(oom.holders.length).toBeGreaterThan(0);
    expect(oom.holders.length).toBeLessThanOrEqual(10);
    for (let i = 1; i < oom.holders.length; i++) {
      expect(oom.holders[i - 1]!.bytes).toBeGreaterThanOrEqual(oom.holders[i]!.bytes);
    }
    const deviceIndex = snapshot.devices.findIndex((d) => d.device === 1);
    const index = createAllocatorStateIndex(
      snapshot.devices[deviceIndex]!,
      snapshot.allocatorSettings,
    );
    const all = holdersOf(snapshot, snapshot.devices[deviceIndex]!, index.stateAt(421), Infinity);
    expect(all.reduce((sum, h) => sum + h.bytes, 0)).toBe(reference.active);
    expect(all.reduce((sum, h) => sum + h.count, 0)).toBe(reference.live.length);
    expect(oom.holders).toEqual(all.slice(0, 10));
    // One row per label shown: never two rows that read the same (issue 10: "update_nodes 7.4 GiB"
    // twice); each row's figures are the sums of its stacks, largest stack first.
    const labels = all.map((holder) => holder.topFrame);
    expect(new Set(labels).size).toBe(labels.length);
    for (const holder of all) {
      expect(holder.bytes).toBe(holder.stacks.reduce((sum, stack) => sum + stack.bytes, 0));
      expect(holder.count).toBe(holder.stacks.reduce((sum, stack) => sum + stack.count, 0));
      expect(holder.stackId).toBe(holder.stacks[0]!.stackId);
      for (let i = 1; i < holder.stacks.length; i++)
        expect(holder.stacks[i - 1]!.bytes).toBeGreaterThanOrEqual(holder.stacks[i]!.bytes);
    }
    expect(all.some((holder) => holder.stacks.length > 1)).toBe(true);
    expect(oom.holders[0]!.topFrame).not.toBeNull();
    expect(oom.verdictText).toContain(
      `The largest holders are ${oom.holders[0]!.topFrame!} (${formatBytes(oom.holders[0]!.bytes)})`,
    );
  });
});

interface ExpectedOom {
  event_index: number;
  requested_bytes: number;
  rounded_request_bytes: number;
  device_free_bytes: number;
  segment_type: 'large' | 'small';
  reserved_bytes: number;
  active_bytes: number;
  cached_free_bytes: number;
  largest_free_bytes: number;
  free_block_count: number;
  pool_cached_free_bytes: number;
  pool_largest_free_bytes: number;
  holder_bytes: number[];
  verdict: string;
}

const GENERATED_OOMS = ['oom', 'oom_fragmentation', 'oom_full'];

describe.each(GENERATED_OOMS)('generated %s', (name) => {
  const expectedPath = join(GENERATED_DIR, `${name}.oom.json`);

  it('explains each oom with the figures and verdict the simulation recorded', async () => {
    expect(existsSync(expectedPath)).toBe(true);
    const expected = JSON.parse(readFileSync(expectedPath, 'utf8')) as {
      file: string;
      devices: { device: number; ooms: ExpectedOom[] }[];
    };
    const snapshot = await loadAnalyzedSnapshot(join(GENERATED_DIR, expected.file));
    for (const { device, ooms } of expected.devices) {
      const deviceIndex = snapshot.devices.findIndex((d) => d.device === device);
      const index = createAllocatorStateIndex(
        snapshot.devices[deviceIndex]!,
        snapshot.allocatorSettings,
      );
      const explanations = explainOoms(snapshot, deviceIndex, index);
      expect(explanations.map((e) => e.event)).toEqual(ooms.map((o) => o.event_index));
      explanations.forEach((ours, i) => {
        const want = ooms[i]!;
        expect({
          requested: ours.requestedBytes,
          rounded: ours.roundedRequestBytes,
          deviceFree: ours.deviceFreeBytes,
          segmentType: ours.segmentType,
          reserved: ours.reservedBytes,
          active: ours.activeBytes,
          cachedFree: ours.cachedFreeBytes,
          largestFree: ours.largestFreeBytes,
          poolCachedFree: ours.poolCachedFreeBytes,
          poolLargestFree: ours.poolLargestFreeBytes,
          // The simulation sums live bytes per stack; ours group stacks by their top user frame,
          // keeping each stack's figures inside its group.
          holderBytes: holdersOf(
            snapshot,
            snapshot.devices[deviceIndex]!,
            index.stateAt(ours.event),
            Infinity,
          )
            .flatMap((holder) => holder.stacks.map((stack) => stack.bytes))
            .sort((x, y) => y - x)
            .slice(0, 10),
          verdict: ours.verdict,
        }).toEqual({
          requested: want.requested_bytes,
          rounded: want.rounded_request_bytes,
          deviceFree: want.device_free_bytes,
          segmentType: want.segment_type,
          reserved: want.reserved_bytes,
          active: want.active_bytes,
          cachedFree: want.cached_free_bytes,
          largestFree: want.largest_free_bytes,
          poolCachedFree: want.pool_cached_free_bytes,
          poolLargestFree: want.pool_largest_free_bytes,
          holderBytes: want.holder_bytes,
          verdict: want.verdict,
        });
        const state = index.stateAt(ours.event);
        expect(figuresOfState(state, 0).freeBlockCount).toBe(want.free_block_count);
      });
    }
  });
});

describe('verdict texts', () => {
  it('fragmentation: names the cached free bytes, the largest hole, the request and the fix', async () => {
    const snapshot = await loadAnalyzedSnapshot(join(GENERATED_DIR, 'oom_fragmentation.pickle'));
    const [oom] = explain(snapshot, 0);
    expect(oom!.verdict).toBe('fragmentation');
    expect(oom!.expandableSegments).toBe(false);
    expect(oom!.verdictText).toBe(
      `Fragmentation: ${formatBytes(oom!.cachedFreeBytes)} is cached free but the largest hole in ` +
        `the default pool on the default stream (large segments) is ${formatBytes(oom!.poolLargestFreeBytes)} ` +
        `< the ${formatBytes(oom!.roundedRequestBytes!)} request; ` +
        `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True avoids this.`,
    );
  });

  it('fragmentation with expandable segments already on suggests something else', async () => {
    const snapshot = await loadAnalyzedSnapshot(join(GENERATED_DIR, 'oom_fragmentation.pickle'));
    snapshot.allocatorSettings = { ...snapshot.allocatorSettings, expandable_segments: true };
    const [oom] = explain(snapshot, 0);
    expect(oom!.verdict).toBe('fragmentation');
    expect(oom!.verdictText).not.toMatch(/expandable_segments:True/);
    expect(oom!.verdictText).toMatch(/expandable segments are already on/);
  });

  it('out of memory: live bytes of what PyTorch could reach, and the largest holders', async () => {
    const snapshot = await loadAnalyzedSnapshot(join(GENERATED_DIR, 'oom_full.pickle'));
    const [oom] = explain(snapshot, 0);
    expect(oom!.verdict).toBe('out-of-memory');
    expect(oom!.verdictText).toMatch(
      new RegExp(
        `^Out of memory: live tensors hold ${formatBytes(oom!.activeBytes)} of the ` +
          `${formatBytes(oom!.reservedBytes + oom!.deviceFreeBytes!)} PyTorch could reach .*` +
          `The largest holders are .+ \\(${formatBytes(oom!.holders[0]!.bytes)}\\)`,
      ),
    );
  });
});

describe('what if (no oom): the active peak', () => {
  it.each([
    ['LINYUNLinYun', 0],
    ['kkaitlyn111', 0],
    ['Constructor-Sun', 0],
  ])('%s device %i: the figures of the reference at the peak', async (prefix, device) => {
    const path = realSnapshotPath(prefix);
    const snapshot = await loadAnalyzedSnapshot(path);
    const deviceIndex = snapshot.devices.findIndex((d) => d.device === device);
    const deviceView = snapshot.devices[deviceIndex]!;
    const index = createAllocatorStateIndex(deviceView, snapshot.allocatorSettings);
    const whatIf = explainPeak(snapshot, deviceIndex, index);
    const peak = deviceView.figures.active.peakEventIndex;
    expect(whatIf.verdict).toBe('what-if');
    expect(whatIf.event).toBe(peak);
    expect(whatIf.requestedBytes).toBeNull();
    expect(whatIf.activeBytes).toBe(deviceView.figures.active.peakBytes);
    const [reference] = referenceStates(path, device, [peak]);
    expect(whatIf.reservedBytes).toBe(reference!.reserved);
    expect(whatIf.activeBytes).toBe(reference!.active);
    expect(whatIf.cachedFreeBytes).toBe(reference!.cached_free);
    expect(whatIf.largestFreeBytes).toBe(reference!.largest_free);
    const group = referenceGroup(reference!, whatIf.stream, whatIf.segmentType);
    expect(whatIf.poolLargestFreeBytes).toBe(group.largest_free);
    const figures = figuresOfState(index.stateAt(peak), smallHoleThreshold(deviceView));
    expect(whatIf.cachedFreeBytes).toBe(figures.cachedFreeBytes);
    expect(whatIf.verdictText).toMatch(/^What if: at the active peak \(event \d+\), live tensors/);
    expect(whatIf.verdictText).toContain(
      `larger than ${formatBytes(whatIf.poolLargestFreeBytes)} in the default pool`,
    );
  });
});
