// Which x ticks get a label and how they read, the same in the app's timeline, its fragmentation
// chart and the exported SVG: time ticks in the unit their step needs, event ticks only on whole
// events (an empty trace has no event numbers worth labelling).

import { formatEventTick, timeTickFormatter } from './axis-format';
import type { XMode } from './event-axis';

export interface XAxisTicks {
  values: number[];
  format: (value: number) => string;
}

/** `candidates` are round ticks within the shown range [x0, x1] (x units of the axis). */
export function xAxisTicks(
  mode: XMode,
  candidates: number[],
  x0: number,
  x1: number,
  traceLength: number,
): XAxisTicks {
  if (mode === 'time') {
    const step = candidates.length > 1 ? candidates[1]! - candidates[0]! : x1 - x0;
    const largest = Math.max(Math.abs(candidates[0] ?? 0), Math.abs(candidates.at(-1) ?? 0));
    return { values: candidates, format: timeTickFormatter(step, largest) };
  }
  return {
    values: traceLength === 0 ? [] : candidates.filter((value) => Number.isInteger(value)),
    format: formatEventTick,
  };
}
