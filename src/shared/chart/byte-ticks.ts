// Byte axes in the allocator's own units, in the app and in exported SVG: ticks fall on binary
// steps (a power of two times a power of 1024), so 0, 512 MiB, 1 GiB, 1.5 GiB… rather than 0,
// 500000000, 1000000000… and every label is exact in the unit it shows.

const UNIT_NAMES = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

export interface ByteTicks {
  /** Tick values in bytes, from 0 up to the last step not above the maximum. */
  values: number[];
  /** Distance between ticks in bytes. */
  stepBytes: number;
  /** The unit every label is written in (the largest power of 1024 not above the maximum). */
  unitBytes: number;
  unitName: string;
  /** Label for a tick value: "1.5 GiB"; zero is "0". */
  format: (bytes: number) => string;
}

/** Power of 1024 used to write `bytes` (the largest not above it; bytes for anything below 1 KiB). */
export function byteUnitIndex(bytes: number): number {
  let index = 0;
  let value = Math.abs(bytes);
  while (value >= 1024 && index < UNIT_NAMES.length - 1) {
    value /= 1024;
    index += 1;
  }
  return index;
}

/**
 * The power-of-two step (never below one byte) that gives the number of ticks closest to
 * `targetCount` over [0, maxBytes], preferring fewer ticks when two are equally close.
 */
export function binaryStepBytes(maxBytes: number, targetCount: number): number {
  if (!(maxBytes > 0)) return 1;
  const target = Math.max(1, targetCount);
  // Steps are powers of two: start near maxBytes / target and compare the neighbours.
  const ideal = maxBytes / target;
  const exponent = Math.max(0, Math.floor(Math.log2(ideal)));
  let best = 2 ** exponent;
  let bestError = Infinity;
  for (const candidate of [exponent - 1, exponent, exponent + 1, exponent + 2]) {
    if (candidate < 0) continue;
    const step = 2 ** candidate;
    const count = Math.floor(maxBytes / step);
    const error = Math.abs(count - target);
    if (error < bestError || (error === bestError && step > best)) {
      best = step;
      bestError = error;
    }
  }
  return best;
}

/** Ticks for a byte axis from 0 to maxBytes with about targetCount intervals. */
export function byteTicks(maxBytes: number, targetCount = 5): ByteTicks {
  const max = Number.isFinite(maxBytes) && maxBytes > 0 ? maxBytes : 0;
  const stepBytes = binaryStepBytes(max, targetCount);
  // The unit of the maximum, except just above a unit boundary, where steps of the smaller unit
  // read better (0 … 1024 MiB rather than 0, 0.125 GiB, … 1 GiB).
  let unitIndex = byteUnitIndex(Math.max(max, stepBytes));
  if (stepBytes < 1024 ** unitIndex && max < 2 * 1024 ** unitIndex) unitIndex -= 1;
  const unitBytes = 1024 ** unitIndex;
  const unitName = UNIT_NAMES[unitIndex]!;
  // Enough decimals that every multiple of the step is exact in the unit (steps are powers of two).
  const stepInUnit = stepBytes / unitBytes;
  // A step of 2^-k of the unit needs k decimals.
  const decimals = stepInUnit >= 1 ? 0 : Math.min(10, Math.round(-Math.log2(stepInUnit)));
  const count = Math.floor(max / stepBytes + 1e-9);
  const values: number[] = [];
  for (let i = 0; i <= count; i++) values.push(i * stepBytes);
  const format = (bytes: number): string => {
    if (bytes === 0) return '0';
    const value = bytes / unitBytes;
    return `${trimZeros(value.toFixed(decimals))} ${unitName}`;
  };
  return { values, stepBytes, unitBytes, unitName, format };
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
