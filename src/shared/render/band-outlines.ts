// The exported timeline's allocation bands as SVG path data: each band's outline (top edge left to
// right, bottom edge back) on half-pixel x positions. Steps narrower than half a pixel are
// invisible and dropped, so a band's path grows with the pixels it covers, not with its events.

import type { AllocationBand } from '../chart/timeline-layout';
import { num } from './svg-markup';

export interface BandOutlines {
  /** Path data, one per band, in band order. */
  paths: string[];
  /** Steps over all paths: what the document's size follows. */
  steps: number;
}

export function bandOutlines(
  bands: readonly AllocationBand[],
  xOfEvent: (event: number) => number,
  yOfBytes: (bytes: number) => number,
): BandOutlines {
  const paths: string[] = [];
  let total = 0;
  const xs: number[] = [];
  const offsets: number[] = [];
  for (const band of bands) {
    xs.length = 0;
    offsets.length = 0;
    const steps = band.stepEvents.length;
    const end = Math.round(xOfEvent(band.endEvent) * 2) / 2;
    for (let i = 0; i < steps; i++) {
      const x = Math.round(xOfEvent(band.stepEvents[i]!) * 2) / 2;
      const next = i + 1 < steps ? Math.round(xOfEvent(band.stepEvents[i + 1]!) * 2) / 2 : end;
      if (next <= x) continue; // narrower than half a pixel
      const offset = band.stepOffsets[i]!;
      if (offsets.length > 0 && offsets[offsets.length - 1] === offset) continue;
      xs.push(x);
      offsets.push(offset);
    }
    if (xs.length === 0) {
      // Thinner than half a pixel everywhere: a hairline at its first position.
      const x = Math.round(xOfEvent(band.stepEvents[0] ?? band.endEvent) * 2) / 2;
      xs.push(x);
      offsets.push(band.stepOffsets[0] ?? 0);
      paths.push(outlinePath(xs, offsets, Math.max(end, x + 0.5), band.sizeBytes, yOfBytes));
      total += 1;
      continue;
    }
    paths.push(outlinePath(xs, offsets, end, band.sizeBytes, yOfBytes));
    total += xs.length;
  }
  return { paths, steps: total };
}

/**
 * A band `size` bytes tall whose bottom sits at offsets[i] from xs[i] to the next x (the last
 * step runs to endX).
 */
export function outlinePath(
  xs: readonly number[],
  offsets: readonly number[],
  endX: number,
  size: number,
  yOfBytes: (bytes: number) => number,
): string {
  const n = xs.length;
  const at = (i: number): number => (i < n ? xs[i]! : endX);
  let d = `M${num(xs[0]!)} ${num(yOfBytes(offsets[0]! + size))}`;
  for (let i = 0; i < n; i++) {
    d += `H${num(at(i + 1))}`;
    if (i < n - 1) d += `V${num(yOfBytes(offsets[i + 1]! + size))}`;
  }
  d += `V${num(yOfBytes(offsets[n - 1]!))}`;
  for (let i = n - 1; i >= 0; i--) {
    d += `H${num(xs[i]!)}`;
    if (i > 0) d += `V${num(yOfBytes(offsets[i - 1]!))}`;
  }
  return `${d}Z`;
}
