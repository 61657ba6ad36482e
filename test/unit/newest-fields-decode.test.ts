// Every field of the newest snapshots, on generated files (no real file has them): each decode
// path keeps what was planted, and none of it changes a figure. The same seed without the extras
// is the reference: its figures must come out equal, device by device.

import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import {
  makeNewestSnapshot,
  UNKNOWN_ACTION,
  UNKNOWN_KEYS,
} from '../../generators/snapshot/newest-fields-snapshot';
import {
  buildAnalyzedSnapshot,
  type AnalyzedSnapshot,
} from '../../src/shared/analyzed/analyzed-snapshot';
import {
  allocationDetails,
  frameFx,
  hasDetails,
} from '../../src/shared/analyzed/allocation-details';
import { BEFORE_TRACE } from '../../src/shared/analysis/allocation-table';
import { HOST_DEVICE } from '../../src/shared/snapshot/model';
import { chunksOf, decodeBytes } from '../support/analyzed';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';

const withExtras = makeNewestSnapshot({ seed: 11 });
const plain = makeNewestSnapshot({
  seed: 11,
  newestFields: false,
  unknownExtras: false,
  hostMemory: false,
});
const extrasBytes = dumpToBytes(withExtras.value);
const plainBytes = dumpToBytes(plain.value);

type DecodePath = readonly [string, (bytes: Uint8Array) => Promise<AnalyzedSnapshot>];

const analyzed = async (
  bytes: Uint8Array,
  decode: (bytes: Uint8Array) => ReturnType<typeof decodeBytes>,
): Promise<AnalyzedSnapshot> =>
  buildAnalyzedSnapshot(await decode(bytes), { fileName: 'x.pickle', fileBytes: bytes.length });

const PATHS: readonly DecodePath[] = [
  ['fast path', (bytes) => analyzed(bytes, (b) => decodeBytes(b))],
  ['generic path', (bytes) => analyzed(bytes, (b) => decodeBytes(b, { fastTraceEntries: false }))],
  [
    'fast path in 7-byte chunks',
    (bytes) => analyzed(bytes, (b) => decodeSnapshot(chunksOf(b, 7), { totalBytes: b.length })),
  ],
];

/** The CUDA devices' figures, stacks by their frames (ids depend on the order first seen). */
function cudaFigures(snapshot: AnalyzedSnapshot): unknown[] {
  const stackText = (stackId: number): string[] => {
    const { offsets, frameIds } = snapshot.stacks;
    if (stackId < 0) return [];
    return [...frameIds.subarray(offsets[stackId]!, offsets[stackId + 1]!)].map(
      (id) =>
        `${snapshot.frames.filename[id]}:${snapshot.frames.line[id]} ${snapshot.frames.name[id]}`,
    );
  };
  return snapshot.devices
    .filter((d) => d.device !== HOST_DEVICE)
    .map((d) => ({
      ...d.figures,
      largestAtPeak: d.figures.largestAtPeak.map(({ stackId, ...rest }) => ({
        ...rest,
        stack: stackText(stackId),
      })),
    }));
}

/** The allocation row whose alloc entry is the planted one (same address and time). */
function rowOf(snapshot: AnalyzedSnapshot, device: number, addr: number, timeUs: number): number {
  const d = snapshot.devices.find((candidate) => candidate.device === device)!;
  for (let row = 0; row < d.allocations.count; row++) {
    const event = d.allocations.startEvent[row]!;
    if (event === BEFORE_TRACE) continue;
    if (d.allocations.address[row] === addr && d.timeUs![event] === timeUs) return row;
  }
  return -1;
}

describe.each(PATHS)('the newest fields, %s', (_name, decode) => {
  it('change no figure of the CUDA devices', async () => {
    const [ours, reference] = await Promise.all([decode(extrasBytes), decode(plainBytes)]);
    expect(cudaFigures(ours)).toEqual(cudaFigures(reference));
    // Only the one notice about unknown keys and actions is added.
    const added = ours.warnings.filter((warning) => !reference.warnings.includes(warning));
    expect(added).toHaveLength(1);
  });

  it('are returned by allocationDetails as planted', async () => {
    const snapshot = await decode(extrasBytes);
    expect(withExtras.planted.allocations.length).toBeGreaterThan(40);
    for (const planted of withExtras.planted.allocations) {
      const row = rowOf(snapshot, planted.device, planted.addr, planted.timeUs);
      expect(row).toBeGreaterThanOrEqual(0);
      const device = snapshot.devices.find((d) => d.device === planted.device)!;
      const details = allocationDetails(snapshot, device, row);
      expect(details.userMetadata).toBe(planted.userMetadata);
      if (planted.userMetadata?.startsWith('{') === true) {
        expect(details.userMetadataParsed).toEqual(JSON.parse(planted.userMetadata));
      } else {
        expect(details.userMetadataParsed).toBeUndefined();
      }
      expect(details.compileContext).toBe(planted.compileContext);
      expect(details.poolId).toBe(planted.poolId);
      expect(details.internalMetadata).toBe(planted.internalMetadata);
      expect(details.category).toBe(planted.category);
      expect(details.forwardFrames).toEqual(planted.forwardFrames);
      expect(details.annotations.map((annotation) => annotation.text)).toEqual(planted.annotations);
      for (const annotation of details.annotations) {
        // The annotating call's stack, and the moment: not before the allocation.
        expect(annotation.stackId).toBeGreaterThanOrEqual(0);
        expect(annotation.event).toBeGreaterThanOrEqual(device.allocations.startEvent[row]!);
        expect(annotation.event).toBeLessThan(device.allocations.endEvent[row]!);
      }
      expect(hasDetails(details)).toBe(true);
    }
  });

  it('give allocations from before the trace the forward_frames of their final block', async () => {
    const snapshot = await decode(extrasBytes);
    expect(withExtras.planted.blocks.length).toBe(2);
    for (const block of withExtras.planted.blocks) {
      const device = snapshot.devices.find((d) => d.device === block.device)!;
      const rows = [...Array(device.allocations.count).keys()].filter(
        (row) =>
          device.allocations.address[row] === block.address &&
          device.allocations.startEvent[row] === BEFORE_TRACE,
      );
      expect(rows).toHaveLength(1);
      expect(allocationDetails(snapshot, device, rows[0]!).forwardFrames).toEqual(
        block.forwardFrames,
      );
    }
  });

  it('keep the FX keys of frames', async () => {
    const snapshot = await decode(extrasBytes);
    const fxFrames = snapshot.frames.filename
      .map((_, id) => frameFx(snapshot.frames, id))
      .filter((fx) => fx !== null);
    expect(fxFrames).toEqual([
      {
        nodeOp: 'call_function',
        nodeName: 'addmm_3',
        nodeTarget: 'aten.addmm.default',
        originalTrace: 'model.py:62 forward: y = self.proj(x)',
      },
    ]);
    const reference = await decode(plainBytes);
    expect(reference.frames.fx).toBeUndefined();
  });

  it('read user_defined entries as annotations of their device', async () => {
    const snapshot = await decode(extrasBytes);
    const ours = snapshot.annotations.map(({ device, stage, name }) => ({ device, stage, name }));
    expect(ours).toEqual(withExtras.planted.userDefined);
    expect(ours.length).toBe(4);
  });

  it('name the unknown keys and actions in one warning', async () => {
    const snapshot = await decode(extrasBytes);
    const count = withExtras.planted.unknownActions.get(UNKNOWN_ACTION)!;
    expect(count).toBeGreaterThan(1);
    const notices = snapshot.warnings.filter((warning) => warning.includes('unknown'));
    expect(notices).toEqual([
      `ignored unknown trace keys: ${[...UNKNOWN_KEYS].sort().join(', ')}; unknown actions: ${UNKNOWN_ACTION} (${count} entries) (not in the figures)`,
    ]);
  });
});

describe('files without the newest fields', () => {
  it('carry no detail columns and return NO_DETAILS', async () => {
    const snapshot = await analyzed(plainBytes, (b) => decodeBytes(b));
    for (const device of snapshot.devices) {
      const details = device.details!;
      expect(details.userMetadataId).toBeNull();
      expect(details.poolIndex).toBeNull();
      expect(details.forwardFramesId).toBeNull();
      expect(details.categoryId).toBeNull();
      expect(details.internalMetadataId).toBeNull();
      expect(details.blockForwardFramesId).toBeNull();
      expect(details.annotations).toEqual([]);
      for (let row = 0; row < device.allocations.count; row++) {
        expect(hasDetails(allocationDetails(snapshot, device, row))).toBe(false);
      }
    }
  });
});
