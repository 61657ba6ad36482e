// Tick labels for the x axis, in the app and in exported SVG: time since the first event in the
// unit that suits the tick step (µs, ms, s), with just enough decimals to tell neighbouring ticks
// apart; event indices grouped.

import { formatExactBytes } from '../format/units';

const TIME_UNITS = [
  { name: 's', us: 1_000_000 },
  { name: 'ms', us: 1_000 },
  { name: 'µs', us: 1 },
] as const;

/**
 * A formatter for ticks `stepUs` apart reaching up to `maxUs`: the unit is the largest that keeps
 * the biggest label at or above one ("0.5 s", "1.0 s" rather than "500 ms", "1000 ms"), and the
 * decimals are those the step needs.
 */
export function timeTickFormatter(stepUs: number, maxUs = stepUs): (valueUs: number) => string {
  const step = Number.isFinite(stepUs) && stepUs > 0 ? stepUs : 1;
  const max = Number.isFinite(maxUs) ? Math.max(Math.abs(maxUs), step) : step;
  const unit = TIME_UNITS.find((candidate) => max >= candidate.us) ?? TIME_UNITS[2];
  const decimals = Math.min(6, precisionFixed(step / unit.us));
  return (valueUs) => {
    if (valueUs === 0) return '0';
    return `${(valueUs / unit.us).toFixed(decimals)} ${unit.name}`;
  };
}

/**
 * Decimals that tell values `step` apart, as d3-format's precisionFixed counts them: minus the
 * decimal exponent of the step as toExponential() writes it (0 for steps of one or more).
 */
export function precisionFixed(step: number): number {
  const value = Math.abs(step);
  if (!(value > 0) || !Number.isFinite(value)) return 0;
  const exponent = Number(value.toExponential().split('e')[1]);
  return Math.max(0, -exponent);
}

export function formatEventTick(event: number): string {
  return formatExactBytes(event);
}
