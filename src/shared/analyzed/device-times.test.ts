import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../../../test/support/analyzed';
import { tinySnapshot } from '../../../test/support/hostile-files';
import {
  deviceTimesUsable,
  eventTimeUs,
  relativeTimes,
  traceTimeSpanUs,
  traceTimesUsable,
} from './device-times';

const times = (values: number[]): Float64Array => Float64Array.from(values);

describe('traceTimeSpanUs', () => {
  it('is the running maximum of time − first', () => {
    expect(traceTimeSpanUs(times([100, 110, 105, 140]), 4)).toBe(40);
    expect(traceTimeSpanUs(times([100, 90, 120]), 3)).toBe(20);
    // An entry without a time (NaN) neither grows nor shrinks it.
    expect(traceTimeSpanUs(times([100, Number.NaN, 130]), 3)).toBe(30);
    // Only the first `length` entries count.
    expect(traceTimeSpanUs(times([100, 110, 500]), 2)).toBe(10);
  });

  it('is null where the times are not usable', () => {
    expect(traceTimeSpanUs(null, 3)).toBeNull();
    expect(traceTimeSpanUs(times([]), 0)).toBeNull();
    expect(traceTimeSpanUs(times([100]), 2)).toBeNull();
    expect(traceTimeSpanUs(times([Number.NaN, 10, 20]), 3)).toBeNull();
    expect(traceTimeSpanUs(times([5, 5, 5]), 3)).toBeNull();
    expect(traceTimeSpanUs(times([5, 4, 3]), 3)).toBeNull();
    expect(traceTimesUsable(times([5, 5]), 2)).toBe(false);
    expect(traceTimesUsable(times([5, 6]), 2)).toBe(true);
  });

  it('agrees with the timeline axis on when time mode is possible', () => {
    const cases = [
      times([100, 110, 105, 140]),
      times([5, 5, 5]),
      times([Number.NaN, 1, 2]),
      times([1, Number.NaN, Number.NaN]),
      times([1, Number.NaN, 3]),
    ];
    for (const timeUs of cases) {
      expect(traceTimesUsable(timeUs, timeUs.length)).toBe(
        relativeTimes(timeUs, timeUs.length) !== null,
      );
    }
  });
});

describe('the analyzed snapshot applies the rule once', () => {
  const retimed = (time: (index: number) => number | undefined) =>
    tinySnapshot((snapshot) => {
      const [trace] = snapshot.device_traces as Record<string, unknown>[][];
      trace!.forEach((entry, index) => {
        const t = time(index);
        if (t === undefined) delete entry.time_us;
        else entry.time_us = t;
      });
    });

  it('keeps times that advance', async () => {
    const snapshot = await analyzeBytes(tinySnapshot());
    const device = snapshot.devices[0]!;
    expect(deviceTimesUsable(device)).toBe(true);
    expect(eventTimeUs(device, 0)).toBe(1_000);
    expect(eventTimeUs(device, 2)).toBe(1_002);
    expect(eventTimeUs(device, -1)).toBeNull();
    expect(eventTimeUs(device, device.traceLength)).toBeNull();
  });

  it('drops times that never advance or that the first entry lacks', async () => {
    for (const bytes of [
      retimed(() => 7),
      retimed(() => undefined),
      retimed((i) => (i === 0 ? undefined : i)),
    ]) {
      const device = (await analyzeBytes(bytes)).devices[0]!;
      expect(device.timeUs).toBeNull();
      expect(deviceTimesUsable(device)).toBe(false);
      expect(eventTimeUs(device, 1)).toBeNull();
    }
  });
});
