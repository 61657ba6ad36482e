// Which moments of two runs to compare. Two runs of one model rarely peak in the same phase: a
// short sequence peaks in the optimizer's step (its state is made there), a long one in the
// forward or backward pass (activations). Their two peaks then differ by phase, not by what the
// longer sequence costs, and a grouped diff of them reads as if one run had no optimizer state.
// By default the comparison therefore aligns phases: the peak of A's backward against the peak of
// B's backward, and so on (steps/phases.ts finds them), and compares the phase in which the
// higher run peaks; peak against peak stays a choice.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { activePeakMoment } from '../analyzed/moments';
import {
  PHASE_NAMES,
  phasesOf,
  type Phase,
  type PhaseName,
  type PhaseSource,
} from '../steps/phases';

/** `phases`: matched phases (default); `peaks`: each run's own active peak. */
export const COMPARE_ALIGNMENTS = ['phases', 'peaks'] as const;
export type CompareAlignment = (typeof COMPARE_ALIGNMENTS)[number];

export interface AlignSide {
  snapshot: PhaseSource;
  device: AnalyzedDevice;
}

/** A phase both runs have: the peak of each run's highest instance of it (over its steps). */
export interface MatchedPhase {
  name: PhaseName;
  a: Phase;
  b: Phase;
  /** b.peakActiveBytes − a.peakActiveBytes. */
  deltaBytes: number;
}

export interface AlignedMoments {
  /** How the moments were chosen: matched phases, or each run's peak. */
  alignment: CompareAlignment;
  aMoment: number;
  bMoment: number;
  /** The phase compared (alignment 'phases'), else null. */
  phase: PhaseName | null;
  /** Every phase both runs have, in step order. */
  matchedPhases: MatchedPhase[];
  /** Why matched phases were not used though asked for (a run has no such phase), or null. */
  fallback: string | null;
}

/** The phase an event lies in (the state after it), or null: none found there. */
export function phaseAt(phases: readonly Phase[], event: number): Phase | null {
  return phases.find((phase) => phase.startEvent <= event && event <= phase.endEvent) ?? null;
}

/** Each phase name's highest-peaking instance (the first, if several peak alike). */
function highestByName(phases: readonly Phase[]): Map<PhaseName, Phase> {
  const highest = new Map<PhaseName, Phase>();
  for (const phase of phases) {
    const known = highest.get(phase.name);
    if (known === undefined || phase.peakActiveBytes > known.peakActiveBytes)
      highest.set(phase.name, phase);
  }
  return highest;
}

export function matchPhases(a: AlignSide, b: AlignSide): MatchedPhase[] {
  const aHighest = highestByName(phasesOf(a.snapshot, a.device).phases);
  const bHighest = highestByName(phasesOf(b.snapshot, b.device).phases);
  const matched: MatchedPhase[] = [];
  for (const name of PHASE_NAMES) {
    const inA = aHighest.get(name);
    const inB = bHighest.get(name);
    if (inA !== undefined && inB !== undefined)
      matched.push({ name, a: inA, b: inB, deltaBytes: inB.peakActiveBytes - inA.peakActiveBytes });
  }
  return matched;
}

/**
 * The moments to compare. With 'phases': the named phase's peaks, or (no name) the phase in which
 * the higher-peaking run reaches its own peak; when the runs do not both have that phase, their
 * peaks, with the reason in `fallback`.
 */
export function alignMoments(
  a: AlignSide,
  b: AlignSide,
  alignment: CompareAlignment,
  phase: PhaseName | null = null,
): AlignedMoments {
  const matchedPhases = matchPhases(a, b);
  const peaks = (fallback: string | null): AlignedMoments => ({
    alignment: 'peaks',
    aMoment: activePeakMoment(a.device),
    bMoment: activePeakMoment(b.device),
    phase: null,
    matchedPhases,
    fallback,
  });
  if (alignment === 'peaks') return peaks(null);
  const wanted = phase ?? peakPhaseOfHigher(a, b);
  if (wanted === null)
    return peaks(
      matchedPhases.length === 0
        ? 'no phases in common (a run has no backward pass or optimizer step found)'
        : 'the higher run peaks outside its phases',
    );
  const match = matchedPhases.find((matched) => matched.name === wanted);
  if (match === undefined) {
    const missing = phasesOf(a.snapshot, a.device).phases.some((p) => p.name === wanted)
      ? 'B'
      : 'A';
    return peaks(`${missing} has no ${wanted} phase`);
  }
  return {
    alignment: 'phases',
    aMoment: match.a.peakEvent,
    bMoment: match.b.peakEvent,
    phase: wanted,
    matchedPhases,
    fallback: null,
  };
}

/** The phase holding the active peak of the run that peaks higher (B on a tie). */
function peakPhaseOfHigher(a: AlignSide, b: AlignSide): PhaseName | null {
  const higher = a.device.figures.active.peakBytes > b.device.figures.active.peakBytes ? a : b;
  return (
    phaseAt(phasesOf(higher.snapshot, higher.device).phases, activePeakMoment(higher.device))
      ?.name ?? null
  );
}
