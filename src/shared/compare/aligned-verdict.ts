// The verdict of a comparison whose moments were aligned (compare/phase-alignment.ts): it names
// the phase compared and, when the runs' own peaks lie in different phases, says so, since the
// difference of two such peaks is mostly the difference of the phases.

import { activePeakMoment } from '../analyzed/moments';
import { formatBytes } from '../format/units';
import { phasesOf } from '../steps/phases';
import { comparisonVerdict, largestChangeWords, type Comparison } from './compare-moments';
import { phaseAt, type AlignedMoments, type AlignSide } from './phase-alignment';

/** The phase each run's own active peak lies in (null: outside the phases found). */
export function peakPhases(a: AlignSide, b: AlignSide): { a: string | null; b: string | null } {
  const of = (side: AlignSide): string | null =>
    phaseAt(phasesOf(side.snapshot, side.device).phases, activePeakMoment(side.device))?.name ??
    null;
  return { a: of(a), b: of(b) };
}

export function alignedVerdict(
  comparison: Comparison,
  aligned: AlignedMoments,
  own: { a: string | null; b: string | null },
): string {
  const differentPeaks =
    own.a !== null && own.b !== null && own.a !== own.b
      ? ` Their own peaks lie in different phases: A's in ${own.a}, B's in ${own.b}.`
      : '';
  if (aligned.alignment === 'phases' && aligned.phase !== null) {
    const delta = comparison.bActiveBytes - comparison.aActiveBytes;
    const phase = aligned.phase;
    const head =
      delta === 0
        ? `A and B hold the same ${formatBytes(comparison.aActiveBytes)} at their ${phase} peaks`
        : `B's ${phase} peaks ${formatBytes(Math.abs(delta))} ${delta > 0 ? 'higher' : 'lower'} than A's (${formatBytes(comparison.aActiveBytes)} → ${formatBytes(comparison.bActiveBytes)})`;
    return `${head}; ${largestChangeWords(comparison)}${differentPeaks}`;
  }
  const fallback = aligned.fallback === null ? '' : ` Not by phase: ${aligned.fallback}.`;
  const hint =
    differentPeaks === ''
      ? ''
      : `${differentPeaks} Compare matched phases to see what the larger run costs.`;
  return `${comparisonVerdict(comparison, 'their active peaks')}${hint}${fallback}`;
}
