// `allocscope steps`: the training steps of a device (from its annotations, else the curve's
// repeats), per-step figures, whether the memory grows from step to step and who keeps it;
// text, or the allocscope.steps/1 document with --json.

import { basename } from 'node:path';
import { formatBytes, formatExactBytes, formatSignedBytes } from '@shared/format/units';
import { DEFAULT_CATEGORY_RULES } from '@shared/holders/category-rules';
import { stepsDocumentOf } from '@shared/report/steps-document';
import { findSteps } from '@shared/steps/find-steps';
import { analyzeGrowth, type GrowthAnalysis } from '@shared/steps/growth';
import { alignColumns } from './align-columns';
import { type StepsCliOptions } from './cli-options';
import { cliDeviceName, loadAnalyzedSnapshot, chosenDevice } from './load-analyzed-snapshot';
import { readRules } from './read-rules';
import { jsonText } from '@shared/format/json-text';
import { joinLines } from './text-lines';

/** Steps listed in the text (the JSON has them all): the first and the last ones. */
const TEXT_STEPS = 12;
const TEXT_SUSPECTS = 10;

export async function runSteps(options: StepsCliOptions): Promise<string> {
  const rules = options.rules === null ? DEFAULT_CATEGORY_RULES : await readRules(options.rules);
  const view = await loadAnalyzedSnapshot(options.file, options);
  const device = chosenDevice(view, options.device);
  const growth = analyzeGrowth(view, device, findSteps(view, device), { by: options.by, rules });
  if (options.json) return jsonText(stepsDocumentOf(view.fileName, device, growth));
  return formatStepsText(basename(options.file), cliDeviceName(device.device), growth, options);
}

export function formatStepsText(
  file: string,
  deviceName: string,
  growth: GrowthAnalysis,
  options: { bytes: boolean },
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
    lines.push(
      ...alignColumns(
        [['step', 'events', 'peak active', 'active at end', 'reserved at end', 'change'], ...rows],
        ['left', 'left', 'right', 'right', 'right', 'right'],
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
  return joinLines(lines);
}
