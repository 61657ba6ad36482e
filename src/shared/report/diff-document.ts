// `allocscope diff A B --json` (schema allocscope.diff/1): two snapshots (or two devices of one)
// side by side at a moment of each (default the peaks of matched phases): their headline figures,
// each phase's peaks, the difference, and the groups that changed. The groups' deltas add up to
// the difference of the moments' active bytes. docs/diff-json.md describes every field.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { Comparison, GroupChange } from '../compare/compare-moments';
import { phaseAt, type AlignedMoments, type CompareAlignment } from '../compare/phase-alignment';
import { phasesOf, type Phase, type PhaseName } from '../steps/phases';
import { deviceLabel } from '../format/words';
import type { GroupBy } from '../holders/group-by';

export const DIFF_SCHEMA = 'allocscope.diff/1';

export interface DiffSideJson {
  file: string;
  device: number;
  device_label: string;
  moment: {
    event_index: number;
    active_bytes: number;
    /** The phase the moment lies in (its step: 1-based, null without steps), or null. */
    phase: { name: PhaseName; step: number | null } | null;
  };
  peak_active_bytes: number;
  /** null where the file records no reserved bytes (a CPU profiler trace). */
  peak_reserved_bytes: number | null;
  ooms: number;
  trace_entries: number;
}

export interface DiffDocument {
  schema: typeof DIFF_SCHEMA;
  a: DiffSideJson;
  b: DiffSideJson;
  /** peak_reserved_bytes: null unless both sides record reserved bytes. */
  delta: { peak_active_bytes: number; peak_reserved_bytes: number | null; active_bytes: number };
  /** How the moments were chosen: matched phases, each one's peak, or a moment given. */
  alignment: CompareAlignment | 'moment';
  /** The phase compared (alignment "phases"), else null. */
  phase: PhaseName | null;
  /** Why matched phases were asked for but not used, or null. */
  alignment_fallback: string | null;
  /** Each phase both have: the peak of each one's highest instance of it. */
  phases: {
    name: PhaseName;
    a: PhasePeakJson;
    b: PhasePeakJson;
    delta_bytes: number;
  }[];
  by: GroupBy;
  verdict: string;
  groups: {
    key: string;
    title: string;
    change: GroupChange;
    category: string;
    a_bytes: number;
    b_bytes: number;
    delta_bytes: number;
    a_allocations: number;
    b_allocations: number;
  }[];
  /** Groups past --limit, summed (their deltas complete the sum). */
  omitted_groups: { count: number; a_bytes: number; b_bytes: number; delta_bytes: number };
}

export interface PhasePeakJson {
  step: number | null;
  start_event: number;
  end_event: number;
  peak_event: number;
  peak_active_bytes: number;
}

function phasePeakJson(phase: Phase): PhasePeakJson {
  return {
    step: phase.step === null ? null : phase.step + 1,
    start_event: phase.startEvent,
    end_event: phase.endEvent,
    peak_event: phase.peakEvent,
    peak_active_bytes: phase.peakActiveBytes,
  };
}

export interface DiffSide {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  moment: number;
}

function sideJson(side: DiffSide, activeBytes: number): DiffSideJson {
  const figures = side.device.figures;
  return {
    file: side.snapshot.fileName,
    device: side.device.device,
    device_label: deviceLabel(side.device.device),
    moment: { event_index: side.moment, active_bytes: activeBytes, phase: momentPhase(side) },
    peak_active_bytes: figures.active.peakBytes,
    peak_reserved_bytes: figures.reservedRecorded ? figures.reserved.peakBytes : null,
    ooms: side.device.ooms.length,
    trace_entries: side.device.traceLength,
  };
}

function momentPhase(side: DiffSide): DiffSideJson['moment']['phase'] {
  const phase = phaseAt(phasesOf(side.snapshot, side.device).phases, side.moment);
  return phase === null
    ? null
    : { name: phase.name, step: phase.step === null ? null : phase.step + 1 };
}

export function diffDocumentOf(
  a: DiffSide,
  b: DiffSide,
  comparison: Comparison,
  verdict: string,
  limit: number | null,
  aligned: AlignedMoments | null = null,
): DiffDocument {
  const shown = limit === null ? comparison.groups : comparison.groups.slice(0, limit);
  const rest = comparison.groups.slice(shown.length);
  const sum = (field: 'aBytes' | 'bBytes' | 'deltaBytes'): number =>
    rest.reduce((total, group) => total + group[field], 0);
  const aJson = sideJson(a, comparison.aActiveBytes);
  const bJson = sideJson(b, comparison.bActiveBytes);
  return {
    schema: DIFF_SCHEMA,
    a: aJson,
    b: bJson,
    delta: {
      peak_active_bytes: bJson.peak_active_bytes - aJson.peak_active_bytes,
      peak_reserved_bytes:
        bJson.peak_reserved_bytes === null || aJson.peak_reserved_bytes === null
          ? null
          : bJson.peak_reserved_bytes - aJson.peak_reserved_bytes,
      active_bytes: comparison.bActiveBytes - comparison.aActiveBytes,
    },
    alignment: aligned?.alignment ?? 'moment',
    phase: aligned?.phase ?? null,
    alignment_fallback: aligned?.fallback ?? null,
    phases: (aligned?.matchedPhases ?? []).map((matched) => ({
      name: matched.name,
      a: phasePeakJson(matched.a),
      b: phasePeakJson(matched.b),
      delta_bytes: matched.deltaBytes,
    })),
    by: comparison.by,
    verdict,
    groups: shown.map((group) => ({
      key: group.key,
      title: group.title,
      change: group.change,
      category: group.category,
      a_bytes: group.aBytes,
      b_bytes: group.bBytes,
      delta_bytes: group.deltaBytes,
      a_allocations: group.aAllocations,
      b_allocations: group.bAllocations,
    })),
    omitted_groups: {
      count: rest.length,
      a_bytes: sum('aBytes'),
      b_bytes: sum('bBytes'),
      delta_bytes: sum('deltaBytes'),
    },
  };
}
