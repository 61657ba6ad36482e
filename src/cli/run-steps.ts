// `allocscope steps`: the training steps of a device (from its annotations, else the curve's
// repeats), per-step figures, whether the memory grows from step to step and who keeps it;
// text, or the allocscope.steps/1 document with --json.

import { basename } from 'node:path';
import { formatBytes, formatExactBytes, formatSignedBytes } from '@shared/format/units';
import { DEFAULT_CATEGORY_RULES } from '@shared/holders/category-rules';
import { stepsDocumentOf } from '@shared/report/steps-document';
import { findSteps } from '@shared/steps/find-steps';
import { phasesOf, type StepPhases } from '@shared/steps/phases';
import { CATEGORY_NAMES, type Category } from '@shared/holders/categories';
import { analyzeGrowth, type GrowthAnalysis } from '@shared/steps/growth';
import { alignColumns } from './align-columns';
import { type StepsCliOptions } from './cli-options';
import {
  cliDeviceName,
  loadAnalyzedSnapshot,
  type SnapshotLoader,
  chosenDevice,
} from './load-analyzed-snapshot';
import { readRules } from './read-rules';
import { jsonText } from '@shared/format/json-text';
import { joinLines } from './text-lines';

/** Steps listed in the text (the JSON has them all): the first and the last ones. */
const TEXT_STEPS = 12;
const TEXT_SUSPECTS = 10;

export async function runSteps(
  options: StepsCliOptions,
  load: SnapshotLoader = loadAnalyzedSnapshot,
): Promise<string> {
  const rules = options.rules === null ? DEFAULT_CATEGORY_RULES : await readRules(options.rules);
  const snapshot = await load(options.file, options);
  const device = chosenDevice(snapshot, options.device);
  const growth = analyzeGrowth(snapshot, device, findSteps(snapshot, device), {
    by: options.by,
    rules,
  });
  const phases = phasesOf(snapshot, device);
  if (options.json) return jsonText(stepsDocumentOf(snapshot.fileName, device, growth, phases));
  return formatStepsText(
    basename(options.file),
    cliDeviceName(device.device),
    growth,
    { bytes: options.bytes, reservedRecorded: device.figures.reservedRecorded },
    phases,
  );
}

export function formatStepsText(
  file: string,
  deviceName: string,
  growth: GrowthAnalysis,
  /** reservedRecorded false (a CPU profiler trace): no "reserved at end" column of 0 B. */
  options: { bytes: boolean; reservedRecorded?: boolean },
  phases: StepPhases = { phases: [], note: '' },
): string {
  const bytes = (value: number): string =>
    options.bytes ? `${formatBytes(value)} (${formatExactBytes(value)} B)` : formatBytes(value);
  const lines = [`${file}  ${deviceName}: ${growth.found.note}`, '', growth.verdict];
  const steps = growth.steps;
  if (steps.length > 0) {
    lines.push('');
    const shown =
      steps.length <= TEXT_STEPS
        ? steps
        : [...steps.slice(0, TEXT_STEPS / 2), null, ...steps.slice(-TEXT_STEPS / 2)];
    const rows = shown.map((step) =>
      step === null
        ? [`… ${steps.length - TEXT_STEPS} more`, '', '', '', '', '']
        : [
            step.name,
            `${step.startEvent}–${step.endEvent}`,
            bytes(step.peakActiveBytes),
            bytes(step.endActiveBytes),
            bytes(step.endReservedBytes),
            step.endActiveDeltaBytes === null
              ? ''
              : formatSignedBytes(step.endActiveDeltaBytes, bytes),
          ],
    );
    const table = [
      ['step', 'events', 'peak active', 'active at end', 'reserved at end', 'change'],
      ...rows,
    ];
    const reservedColumn = 4;
    const keep = (_cell: unknown, column: number): boolean =>
      options.reservedRecorded !== false || column !== reservedColumn;
    lines.push(
      ...alignColumns(
        table.map((row) => row.filter(keep)),
        (['left', 'left', 'right', 'right', 'right', 'right'] as const).filter(keep),
      ),
    );
  }
  if (growth.suspects.length > 0) {
    lines.push('', `kept to the end, growing step after step (by ${growth.by}), steepest first:`);
    const rows = growth.suspects
      .slice(0, TEXT_SUSPECTS)
      .map((suspect) => [
        `${bytes(suspect.bytesPerStep)}/step`,
        `${suspect.stepsGrown} of ${steps.length} steps`,
        bytes(suspect.totalBytes),
        suspect.key,
      ]);
    lines.push(
      ...alignColumns(
        [['growth', 'grew in', 'kept', growth.by === 'category' ? 'category' : 'where'], ...rows],
        ['right', 'left', 'right', 'left'],
      ),
    );
    if (growth.suspects.length > TEXT_SUSPECTS)
      lines.push(`… ${growth.suspects.length - TEXT_SUSPECTS} more (--json lists 20)`);
  }
  lines.push(...phaseLines(phases, growth, bytes));
  return joinLines(lines);
}

/** Phases listed in the text: those of the whole trace, or of the step with the highest peak. */
function phaseLines(
  phases: StepPhases,
  growth: GrowthAnalysis,
  bytes: (value: number) => string,
): string[] {
  if (phases.phases.length === 0) return phases.note === '' ? [] : ['', phases.note];
  const peakStep = growth.steps.reduce<number | null>(
    (best, step) =>
      best === null || step.peakActiveBytes > growth.steps[best]!.peakActiveBytes
        ? step.index
        : best,
    null,
  );
  const shown = phases.phases.filter((phase) => phase.step === peakStep);
  const which =
    peakStep === null ? '' : ` (those of ${growth.steps[peakStep]!.name}, its highest peak)`;
  const rows = shown.map((phase) => [
    phase.name,
    `${phase.startEvent}–${phase.endEvent}`,
    bytes(phase.peakActiveBytes),
    bytes(phase.endActiveBytes),
    formatSignedBytes(phase.addedBytes, bytes),
    keptText(phase.keptByCategory, bytes),
  ]);
  return [
    '',
    `${phases.note}${which}:`,
    ...alignColumns(
      [['phase', 'events', 'peak active', 'active at end', 'change', 'made and kept'], ...rows],
      ['left', 'left', 'right', 'right', 'right', 'left'],
    ),
  ];
}

/** "activation 1.2 GiB, temporary 4.0 MiB": the largest first, three at most. */
function keptText(kept: Partial<Record<string, number>>, bytes: (value: number) => string): string {
  const entries = Object.entries(kept)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '';
  const text = entries
    .slice(0, 3)
    .map(
      ([category, value]) => `${CATEGORY_NAMES[category as Category] ?? category} ${bytes(value)}`,
    );
  return entries.length > 3 ? `${text.join(', ')}, …` : text.join(', ');
}
