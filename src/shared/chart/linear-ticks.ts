// Round tick values for a linear axis (the exported timeline's x axis): d3's scale.ticks without
// d3, so the shared code stays dependency-free.

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
