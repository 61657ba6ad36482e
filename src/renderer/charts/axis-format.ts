// Tick labels for the x axis: time since the first event in the unit that suits the tick step
// (µs, ms, s), with just enough decimals to tell neighbouring ticks apart; event indices grouped.

import { precisionFixed } from 'd3';
import { formatExactBytes } from '@shared/units';

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

export function formatEventTick(event: number): string {
  return formatExactBytes(event);
}
