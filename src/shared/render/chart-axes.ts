// Axis ticks for exported charts, the same values and labels as the app's axes
// (src/renderer/charts/byte-ticks.ts, axis-format.ts and d3's linear ticks), without d3 so the
// shared code stays dependency-free: bytes on binary steps in binary units, time since the first
// event in the unit that suits the step, event indices grouped in threes.

import { formatExactBytes } from '../units';

const UNIT_NAMES = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

export interface ByteTicks {
  /** Tick values in bytes, from 0 up to the last step not above the maximum. */
  values: number[];
  stepBytes: number;
  /** Label for a tick value: "1.5 GiB"; zero is "0". */
  format: (bytes: number) => string;
}

function byteUnitIndex(bytes: number): number {
  let index = 0;
  let value = Math.abs(bytes);
  while (value >= 1024 && index < UNIT_NAMES.length - 1) {
    value /= 1024;
    index += 1;
  }
  return index;
}

function binaryStepBytes(maxBytes: number, targetCount: number): number {
  if (!(maxBytes > 0)) return 1;
  const target = Math.max(1, targetCount);
  const exponent = Math.max(0, Math.floor(Math.log2(maxBytes / target)));
  let best = 2 ** exponent;
  let bestError = Infinity;
  for (const candidate of [exponent - 1, exponent, exponent + 1, exponent + 2]) {
    if (candidate < 0) continue;
    const step = 2 ** candidate;
    const error = Math.abs(Math.floor(maxBytes / step) - target);
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
  let unitIndex = byteUnitIndex(Math.max(max, stepBytes));
  if (stepBytes < 1024 ** unitIndex && max < 2 * 1024 ** unitIndex) unitIndex -= 1;
  const unitBytes = 1024 ** unitIndex;
  const unitName = UNIT_NAMES[unitIndex]!;
  const stepInUnit = stepBytes / unitBytes;
  const decimals = stepInUnit >= 1 ? 0 : Math.min(10, Math.round(-Math.log2(stepInUnit)));
  const count = Math.floor(max / stepBytes + 1e-9);
  const values: number[] = [];
  for (let i = 0; i <= count; i++) values.push(i * stepBytes);
  const format = (bytes: number): string => {
    if (bytes === 0) return '0';
    const text = (bytes / unitBytes).toFixed(decimals);
    return `${text.includes('.') ? text.replace(/\.?0+$/, '') : text} ${unitName}`;
  };
  return { values, stepBytes, format };
}

/** Round ticks (1, 2 or 5 times a power of ten) within [start, stop], about `count` of them. */
export function linearTicks(start: number, stop: number, count: number): number[] {
  if (!(stop > start) || !Number.isFinite(start) || !Number.isFinite(stop)) return [start];
  const raw = (stop - start) / Math.max(1, count);
  const power = Math.floor(Math.log10(raw));
  const error = raw / 10 ** power;
  const factor =
    error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1;
  const ticks: number[] = [];
  if (power >= 0) {
    const step = factor * 10 ** power;
    for (let i = Math.ceil(start / step); i * step <= stop; i++) ticks.push(i * step);
  } else {
    // Divide by the inverse step so ticks like 0.3 come out exact.
    const inverse = 10 ** -power / factor;
    for (let i = Math.ceil(start * inverse); i / inverse <= stop; i++) ticks.push(i / inverse);
  }
  return ticks;
}

const TIME_UNITS = [
  { name: 's', us: 1_000_000 },
  { name: 'ms', us: 1_000 },
  { name: 'µs', us: 1 },
] as const;

/** Decimals that tell ticks `step` apart (d3's precisionFixed). */
function precisionFixed(step: number): number {
  const value = Math.abs(step);
  if (!(value > 0) || !Number.isFinite(value)) return 0;
  return Math.max(0, -Math.floor(Math.log10(value) + 1e-12));
}

/** Formatter for time ticks `stepUs` apart reaching up to `maxUs` ("0.5 s", "12 ms"). */
export function timeTickFormatter(stepUs: number, maxUs = stepUs): (valueUs: number) => string {
  const step = Number.isFinite(stepUs) && stepUs > 0 ? stepUs : 1;
  const max = Number.isFinite(maxUs) ? Math.max(Math.abs(maxUs), step) : step;
  const unit = TIME_UNITS.find((candidate) => max >= candidate.us) ?? TIME_UNITS[2];
  const decimals = Math.min(6, precisionFixed(step / unit.us));
  return (valueUs) =>
    valueUs === 0 ? '0' : `${(valueUs / unit.us).toFixed(decimals)} ${unit.name}`;
}

export function formatEventTick(event: number): string {
  return formatExactBytes(event);
}
