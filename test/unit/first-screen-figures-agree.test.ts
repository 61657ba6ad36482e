// The page's decode worker builds the first screen's figures (timeline index, alive checkpoints,
// steps, phases, the reserved peak, the OOM explanations) and posts them with the snapshot; the
// page's thread then reads them instead of building them. On real snapshots (CUDA OOM, steps, a
// leak, an OOM on a second device, none at all): what the page reads after the trip through
// structured clone equals what it builds itself from the same snapshot, and it is read, not
// built again (the adopted device's columns are wiped first: a rebuild would see other figures).

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adoptAnalyzedSnapshot,
  buildAnalyzedSnapshotData,
  type AnalyzedSnapshot,
  type AnalyzedSnapshotData,
} from '../../src/shared/analyzed/analyzed-snapshot';
import { aliveCheckpointsOf } from '../../src/shared/analyzed/alive-checkpoints';
import { relativeTimes } from '../../src/shared/analyzed/device-times';
import { sharedPostableNames } from '../../src/shared/analyzed/derived-cache';
import { defaultDeviceIndex } from '../../src/shared/analyzed/moments';
import { timelineIndexOf } from '../../src/shared/analyzed/timeline-index';
import { reservedPeakEvent } from '../../src/shared/chart/timeline-markers';
import { deviceExplanationsOf } from '../../src/shared/oom/oom-explainer';
import { builtPhases, phasesOf } from '../../src/shared/steps/phases';
import { stepsOf } from '../../src/shared/steps/find-steps';
import { smallHoleThreshold } from '../../src/shared/state/memory-figures';
import { addFirstScreenFigures } from '../../src/renderer/workers/first-screen-figures';
import { decodeBytes } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';

const SNAPSHOTS = [
  'test/fixtures/cuda-h200/oom.pickle',
  'test/fixtures/cuda-h200/steps.pickle.gz',
  'test/fixtures/cuda-h200/leak.pickle',
  realSnapshotPath('Constructor-Sun'),
  realSnapshotPath('a0kuma'),
];

async function dataOf(path: string): Promise<AnalyzedSnapshotData> {
  const bytes = new Uint8Array(readFileSync(path));
  const model = await decodeBytes(bytes);
  return buildAnalyzedSnapshotData(model, { fileName: basename(path), fileBytes: bytes.length });
}

/** Every figure the worker posts, as the page reads it (plain values, arrays as arrays). */
function firstScreen(snapshot: AnalyzedSnapshot, deviceIndex: number): unknown {
  const device = snapshot.devices[deviceIndex]!;
  const index = timelineIndexOf(device);
  const checkpoints = aliveCheckpointsOf(device);
  return {
    steps: stepsOf(snapshot, device),
    phases: phasesOf(snapshot, device),
    reservedPeak: reservedPeakEvent(device),
    index: {
      activeBlockMin: [...index.activeBlockMin],
      activeBlockMax: [...index.activeBlockMax],
      reservedBlockMin: [...index.reservedBlockMin],
      reservedBlockMax: [...index.reservedBlockMax],
      rowsBySizeClass: [...index.rowsBySizeClass],
      classStarts: [...index.classStarts],
      rowsByArea: [...index.rowsByArea()],
    },
    checkpoints: { offsets: [...checkpoints.offsets], rows: [...checkpoints.rows] },
    ...(device.ooms.length > 0
      ? {
          explanations: deviceExplanationsOf(snapshot, deviceIndex),
          smallHoles: smallHoleThreshold(device),
        }
      : {}),
  };
}

describe('the first screen figures built in the decode worker', () => {
  it.each(SNAPSHOTS)('%s: the page reads what it would build', async (path) => {
    const built = await dataOf(path);
    const deviceIndex = defaultDeviceIndex(built.devices);
    const expected = firstScreen(adoptAnalyzedSnapshot(await dataOf(path)), deviceIndex);

    addFirstScreenFigures(built);
    const posted = built.devices[deviceIndex]!.derivedPosted!.map((entry) => entry.name);
    expect(posted).toEqual(
      expect.arrayContaining([
        'steps',
        'timeline index',
        'reserved peak event',
        'alive checkpoints',
        'phases',
      ]),
    );
    const hasOom = built.devices[deviceIndex]!.ooms.length > 0;
    expect(posted.includes('OOM explanations')).toBe(hasOom);
    // Only the device the page opens on.
    for (const [index, device] of built.devices.entries())
      if (index !== deviceIndex) expect(device.derivedPosted).toBeUndefined();

    // The trip to the page, then a device whose own columns would give other figures.
    const page = adoptAnalyzedSnapshot(structuredClone(built));
    const device = page.devices[deviceIndex]!;
    // The timeline draws posted phases with its first picture (use-phases.ts), others once idle.
    expect(builtPhases(device)).toEqual((expected as { phases: unknown }).phases);
    const unposted = adoptAnalyzedSnapshot(await dataOf(path)).devices[deviceIndex]!;
    expect(builtPhases(unposted)).toBeNull();
    device.activeBytes.fill(0);
    device.reservedBytes.fill(0);
    device.allocations.sizeBytes.fill(0);
    device.allocations.startEvent.fill(0);
    device.allocations.endEvent.fill(0);
    expect(firstScreen(page, deviceIndex)).toEqual(expected);

    // The time axis's times since the first event: posted, and read after the trip even once the
    // device's own times are wiped (built again from zeros they would be unusable: null).
    const fresh = adoptAnalyzedSnapshot(await dataOf(path)).devices[deviceIndex]!;
    const times = relativeTimes(fresh.timeUs, fresh.traceLength);
    expect(built.devices[deviceIndex]!.relativeTimesPosted ?? null).toEqual(times);
    device.timeUs?.fill(0);
    expect(relativeTimes(device.timeUs, device.traceLength)).toEqual(times);
  });

  it('wiping the columns does change what the page builds itself (the check above can fail)', async () => {
    const path = SNAPSHOTS[0]!;
    const data = await dataOf(path);
    const deviceIndex = defaultDeviceIndex(data.devices);
    const expected = firstScreen(adoptAnalyzedSnapshot(await dataOf(path)), deviceIndex);
    const page = adoptAnalyzedSnapshot(structuredClone(data));
    const device = page.devices[deviceIndex]!;
    device.activeBytes.fill(0);
    device.allocations.sizeBytes.fill(0);
    expect(firstScreen(page, deviceIndex)).not.toEqual(expected);
  });

  it('every postable key has a name of its own', () => {
    // Every module with one is loaded above (the worker's builds import them all).
    expect(sharedPostableNames()).toEqual([]);
  });

  it('a snapshot without devices is left as it is', () => {
    const data: AnalyzedSnapshotData = {
      fileName: 'empty.pickle',
      fileBytes: 0,
      pickleProtocol: 4,
      warnings: [],
      actionNames: [],
      frames: { count: 0 } as never,
      stacks: { count: 0 } as never,
      streams: [],
      pools: [],
      annotations: [],
      allocatorSettings: null,
      devices: [],
    };
    addFirstScreenFigures(data);
    expect(data.devices).toEqual([]);
  });
});
