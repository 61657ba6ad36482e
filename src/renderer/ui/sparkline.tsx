// A series as a small line (a group's bytes over the trace, a suspect's bytes per step), with one
// sample marked as a dot.

import type { JSX } from 'react';

const SPARK_WIDTH = 72;
const SPARK_HEIGHT = 16;

/** A group's bytes over the trace as a small line, the selected moment as a dot. */
export function Sparkline(props: {
  values: ArrayLike<number> | undefined;
  /** The sample to mark with a dot (-1: none). */
  momentIndex: number;
}): JSX.Element {
  const { values, momentIndex } = props;
  if (values === undefined || values.length < 2) return <span aria-hidden="true" />;
  let most = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > most) most = values[i]!;
  const x = (i: number): number => (i / (values.length - 1)) * (SPARK_WIDTH - 2) + 1;
  const y = (value: number): number =>
    SPARK_HEIGHT - 1 - (most > 0 ? (value / most) * (SPARK_HEIGHT - 2) : 0);
  const points = Array.from(values, (value, i) => `${x(i).toFixed(1)},${y(value).toFixed(1)}`);
  return (
    <svg width={SPARK_WIDTH} height={SPARK_HEIGHT} aria-hidden="true">
      <polyline points={points.join(' ')} fill="none" stroke="currentColor" strokeWidth="1" />
      {momentIndex >= 0 && momentIndex < values.length && (
        <circle cx={x(momentIndex)} cy={y(values[momentIndex]!)} r="2" fill="#d6336c" />
      )}
    </svg>
  );
}
