// Device indexes and counts: a segment's (or an annotation's, or a pinned host segment's) `device`
// set to -1, -2, 2^31, 2^32-1, 2^40, NaN, a float, a huge int, a bool, a string; device_traces
// with up to profile.maxDeviceLists lists (empty, or the trace moved to the last one with its
// segments), thousands of devices with one entry each, segments on a device far past the trace
// lists, device_traces as a dict keyed by huge ints. Written as a pickle, or as the JSON form.

import { pyFloat, type PickleValue } from '../../generators/pickle/pickle-values';
import { jsonTextOf } from './json-text';
import { ascii, type Mutator } from './mutator-kit';
import type { Prng } from './prng';
import type { Obj } from './snapshot-generator';
import { dumpValue, isPlainObject, snapshotValue } from './snapshot-value';

function hostileDevice(rng: Prng): [unknown, string] {
  return rng.pick<[unknown, string]>([
    [-1, '-1 (the host)'],
    [-2, '-2'],
    [-(2 ** 31), '-2^31'],
    [2 ** 31 - 1, '2^31-1'],
    [2 ** 31, '2^31'],
    [2 ** 32 - 1, '2^32-1'],
    [2 ** 32, '2^32'],
    [2 ** 40, '2^40'],
    [2 ** 53, '2^53'],
    [2n ** 64n, '2^64'],
    [pyFloat(Number.NaN), 'NaN'],
    [pyFloat(Number.POSITIVE_INFINITY), 'inf'],
    [0.5, '0.5'],
    [pyFloat(1), '1.0'],
    [-0.5, '-0.5'],
    [1e300, '1e300'],
    [true, 'True'],
    ['0', "'0'"],
    [null, 'None'],
    [65_535, '65535'],
    [1_000_000, '1000000'],
  ]);
}

export const devices: Mutator = (ctx) => {
  const { rng, profile } = ctx;
  const value = snapshotValue(ctx);
  if (!isPlainObject(value.root)) value.root = { segments: value.root, device_traces: [[]] };
  const root = value.root as Obj;
  const segments = (Array.isArray(root.segments) ? root.segments : []).filter(isPlainObject);
  const key = 'device_traces' in root || !('traces' in root) ? 'device_traces' : 'traces';
  const lists = Array.isArray(root[key]) ? (root[key] as unknown[]) : [];
  root[key] = lists;
  let note: string;
  switch (rng.below(7)) {
    case 0:
    case 1: {
      // Device indexes of segments.
      const [device, label] = hostileDevice(rng);
      const all = rng.chance(0.4);
      const targets = all ? segments : segments.slice(0, 1);
      for (const segment of targets) segment.device = device;
      note = `${all ? 'every segment' : 'a segment'} on device ${label}`;
      if (targets.length === 0) note = 'no segment';
      break;
    }
    case 2: {
      // Many trace lists: empty ones, or the trace moved to the last one with its segments.
      const count = rng.chance(0.3) ? profile.maxDeviceLists : rng.logInt(profile.maxDeviceLists);
      const moved = rng.chance(0.4) && lists.length > 0;
      const trace = moved ? lists.splice(0, 1)[0] : null;
      while (lists.length < count) lists.push([]);
      if (moved) {
        lists[count - 1] = trace;
        for (const segment of segments) segment.device = count - 1;
      }
      note = `${count} trace lists${moved ? ', the trace and the segments on the last' : ''}`;
      break;
    }
    case 3: {
      // Thousands of devices with one entry (and one segment) each.
      const count = rng.logInt(Math.max(1, profile.maxDeviceLists >> 4));
      for (let device = lists.length; device < count; device++) {
        const addr = 0x7f0000000000 + device * 0x200000;
        lists.push([{ action: 'segment_alloc', addr, size: 2 << 20, stream: 0, time_us: device }]);
        if (rng.chance(0.5)) {
          segments.push({
            device,
            address: addr,
            total_size: 2 << 20,
            allocated_size: 0,
            active_size: 0,
            requested_size: 0,
            stream: 0,
            segment_type: 'large',
            blocks: [{ address: addr, size: 2 << 20, requested_size: 0, state: 'inactive' }],
          });
        }
      }
      root.segments = segments;
      note = `${count} devices with one entry each`;
      break;
    }
    case 4: {
      // Annotations (and pinned host memory) on hostile devices.
      const [device, label] = hostileDevice(rng);
      root.external_annotations = [
        { stage: 'START', name: 'step', device, time_us: 1 },
        { stage: 'END', name: 'step', device, time_us: 2 },
      ];
      if (rng.chance(0.5) && segments.length > 0) {
        root.host_segments = [{ ...segments[0]!, device }];
        root.host_traces = rng.chance(0.5) ? [] : [[]];
        note = `annotations and a pinned host segment on device ${label}`;
      } else note = `annotations on device ${label}`;
      break;
    }
    case 5: {
      // device_traces keyed by device (a dict), with huge keys.
      const [device] = hostileDevice(rng);
      root[key] = new Map<never, PickleValue>([
        [0 as never, (lists[0] ?? []) as PickleValue],
        [
          (typeof device === 'number' || typeof device === 'bigint' ? device : 2 ** 40) as never,
          [],
        ],
      ]);
      note = `${key} a dict keyed by device`;
      break;
    }
    default: {
      // Segments on a device far past the trace lists.
      const device = rng.pick([1, 7, 255, 65_535, 2 ** 31 - 1]);
      for (const segment of segments) if (rng.chance(0.5)) segment.device = device;
      note = `segments on device ${device}, ${lists.length} trace list(s)`;
    }
  }
  if (rng.chance(0.2)) {
    const text = jsonTextOf(value.root, { nonFinite: 'null', maxChars: 4 * profile.maxGrowBytes });
    if (text !== null) return { bytes: ascii(text), seed: `${value.seed} as JSON`, note };
  }
  return { bytes: dumpValue(value), seed: value.seed, note };
};
