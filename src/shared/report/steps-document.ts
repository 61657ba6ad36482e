// `allocscope steps --json` (schema allocscope.steps/1): the training steps of a device, the
// figures of each, the growth of the active bytes at the steps' ends and the leak suspects.
// docs/steps-json.md describes every field.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { deviceLabel } from '../format/words';
import type { StepSource } from '../steps/find-steps';
import type { GrowthAnalysis, GrowthBy } from '../steps/growth';
import type { PhaseName, StepPhases } from '../steps/phases';

export const STEPS_SCHEMA = 'allocscope.steps/1';

/** Suspects a document lists (the rest are counted). */
export const STEPS_DOCUMENT_SUSPECTS = 20;

export interface StepsDocument {
  schema: typeof STEPS_SCHEMA;
  file: string;
  device: number;
  device_label: string;
  source: StepSource | null;
  note: string;
  steps: {
    index: number;
    name: string;
    start_event: number;
    end_event: number;
    peak_active_bytes: number;
    peak_event: number;
    end_active_bytes: number;
    /** null: the file records no reserved bytes (a CPU profiler trace). */
    end_reserved_bytes: number | null;
    end_active_delta_bytes: number | null;
  }[];
  growth_bytes_per_step: number;
  growth_fit_r2: number;
  growing: boolean;
  verdict: string;
  by: GrowthBy;
  suspects: {
    key: string;
    top_frame: string;
    bytes_per_step: number;
    fit_r2: number;
    steps_grown: number;
    total_bytes: number;
    bytes_by_step: number[];
    allocations: number;
  }[];
  omitted_suspects: number;
  /** How the phases were found, in words. */
  phases_note: string;
  /** Forward, backward, optimizer and other: inside each step, else over the whole trace. */
  phases: {
    step: number | null;
    name: PhaseName;
    source: 'annotations' | 'stacks';
    start_event: number;
    end_event: number;
    peak_active_bytes: number;
    peak_event: number;
    end_active_bytes: number;
    added_bytes: number;
    kept_by_category: Record<string, number>;
  }[];
}

export function stepsDocumentOf(
  fileName: string,
  device: AnalyzedDevice,
  growth: GrowthAnalysis,
  phases: StepPhases,
): StepsDocument {
  return {
    schema: STEPS_SCHEMA,
    file: fileName,
    device: device.device,
    device_label: deviceLabel(device.device),
    source: growth.found.source,
    note: growth.found.note,
    steps: growth.steps.map((step) => ({
      index: step.index,
      name: step.name,
      start_event: step.startEvent,
      end_event: step.endEvent,
      peak_active_bytes: step.peakActiveBytes,
      peak_event: step.peakEvent,
      end_active_bytes: step.endActiveBytes,
      end_reserved_bytes: device.figures.reservedRecorded ? step.endReservedBytes : null,
      end_active_delta_bytes: step.endActiveDeltaBytes,
    })),
    growth_bytes_per_step: Math.round(growth.growthBytesPerStep),
    growth_fit_r2: round3(growth.endActiveFit.r2),
    growing: growth.growing,
    verdict: growth.verdict,
    by: growth.by,
    suspects: growth.suspects.slice(0, STEPS_DOCUMENT_SUSPECTS).map((suspect) => ({
      key: suspect.key,
      top_frame: suspect.topFrame,
      bytes_per_step: Math.round(suspect.bytesPerStep),
      fit_r2: round3(suspect.fitR2),
      steps_grown: suspect.stepsGrown,
      total_bytes: suspect.totalBytes,
      bytes_by_step: suspect.bytesByStep,
      allocations: suspect.rows.length,
    })),
    omitted_suspects: Math.max(0, growth.suspects.length - STEPS_DOCUMENT_SUSPECTS),
    phases_note: phases.note,
    phases: phases.phases.map((phase) => ({
      step: phase.step,
      name: phase.name,
      source: phase.source,
      start_event: phase.startEvent,
      end_event: phase.endEvent,
      peak_active_bytes: phase.peakActiveBytes,
      peak_event: phase.peakEvent,
      end_active_bytes: phase.endActiveBytes,
      added_bytes: phase.addedBytes,
      kept_by_category: { ...phase.keptByCategory },
    })),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
