// The Compare view's figures side by side: each device's peaks, final active bytes, OOMs and the
// peak of each phase both have, with B − A. A figure one side's file does not record (reserved
// bytes of a CPU profiler trace) is null on that side and has no difference, and the row says
// which side lacks it and why: never "0 B" or a difference against 0 B that reads as measured.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { whyReservedNotRecorded } from '../analyzed/reserved-recorded';
import type { SnapshotSource } from '../snapshot/model';
import type { PhaseName } from '../steps/phases';
import type { MatchedPhase } from './phase-alignment';

export interface SideBySideFigure {
  name: string;
  /** null: that side's file does not record the figure. */
  a: number | null;
  b: number | null;
  /** B − A; null when either side does not record it. */
  delta: number | null;
  /** Bytes (else a count). */
  bytes: boolean;
  /** Which side does not record it, and why; null when both do. */
  notRecorded: string | null;
}

export interface ComparedSide {
  device: Pick<AnalyzedDevice, 'figures' | 'ooms'>;
  source?: SnapshotSource | undefined;
}

export function sideBySideFigures(
  a: ComparedSide,
  b: ComparedSide,
  /** Each phase both have, with its peak in each. */
  phases: readonly MatchedPhase[],
  /** The phase the changes are taken at (marked ◂), or null. */
  compared: PhaseName | null,
): SideBySideFigure[] {
  const af = a.device.figures;
  const bf = b.device.figures;
  return [
    figure('peak active', af.active.peakBytes, bf.active.peakBytes, true),
    reservedFigure(a, b),
    figure('final active', af.active.finalBytes, bf.active.finalBytes, true),
    figure('OOMs', a.device.ooms.length, b.device.ooms.length, false),
    ...phases.map((phase) =>
      figure(
        `${phase.name} peak${phase.name === compared ? ' ◂' : ''}`,
        phase.a.peakActiveBytes,
        phase.b.peakActiveBytes,
        true,
      ),
    ),
  ];
}

function figure(name: string, a: number, b: number, bytes: boolean): SideBySideFigure {
  return { name, a, b, delta: b - a, bytes, notRecorded: null };
}

function reservedFigure(a: ComparedSide, b: ComparedSide): SideBySideFigure {
  const inA = a.device.figures.reservedRecorded;
  const inB = b.device.figures.reservedRecorded;
  const name = 'peak reserved';
  if (inA && inB)
    return figure(
      name,
      a.device.figures.reserved.peakBytes,
      b.device.figures.reserved.peakBytes,
      true,
    );
  const missing = [
    { label: 'A', side: a, recorded: inA },
    { label: 'B', side: b, recorded: inB },
  ].filter((entry) => !entry.recorded);
  const who = missing.length === 2 ? 'Neither A nor B records' : `${missing[0]!.label} records no`;
  const why = [...new Set(missing.map((entry) => whyReservedNotRecorded(entry.side.source)))];
  return {
    name,
    a: inA ? a.device.figures.reserved.peakBytes : null,
    b: inB ? b.device.figures.reserved.peakBytes : null,
    delta: null,
    bytes: true,
    notRecorded: `${who} reserved bytes (${why.join('; ')})`,
  };
}
