// `allocscope diff A B`: two snapshots (or two devices of one: --device-b) at a moment of each
// (default: the peaks of matched phases, compare/phase-alignment.ts), what changed between them,
// grouped; text, or the allocscope.diff/1 document with --json.

import {
  compareMoments,
  comparisonVerdict,
  type Comparison,
} from '@shared/compare/compare-moments';
import { alignMoments, phaseAt, type AlignedMoments } from '@shared/compare/phase-alignment';
import { alignedVerdict, peakPhases } from '@shared/compare/aligned-verdict';
import { phasesOf } from '@shared/steps/phases';
import { deviceLabel } from '@shared/format/words';
import { formatBytes, formatExactBytes, formatSignedBytes } from '@shared/format/units';
import { DEFAULT_CATEGORY_RULES } from '@shared/holders/category-rules';
import { diffDocumentOf, type DiffSide } from '@shared/report/diff-document';
import { alignColumns } from './align-columns';
import { type DiffCliOptions, type MomentSpec } from './cli-options';
import { loadAnalyzedSnapshot, type SnapshotLoader, chosenDevice } from './load-analyzed-snapshot';
import { forFile } from './file-failure';
import { readRules } from './read-rules';
import { resolveMoment } from './run-render';
import { jsonText } from '@shared/format/json-text';
import { joinLines } from './text-lines';
import { countOf } from '@shared/format/plural';

/** Longest group key in the text. */
const MAX_KEY_TEXT = 100;

export async function runDiff(
  options: DiffCliOptions,
  load: SnapshotLoader = loadAnalyzedSnapshot,
): Promise<string> {
  const rules = options.rules === null ? DEFAULT_CATEGORY_RULES : await readRules(options.rules);
  const snapshotA = await forFile(options.fileA, () => load(options.fileA, options));
  const snapshotB =
    options.fileB === options.fileA
      ? snapshotA
      : await forFile(options.fileB, () => load(options.fileB, options));
  const side = async (
    snapshot: typeof snapshotA,
    device: number | null,
    moment: MomentSpec,
  ): Promise<DiffSide> => {
    const chosen = chosenDevice(snapshot, device);
    return { snapshot, device: chosen, moment: resolveMoment(chosen, moment) };
  };
  const sideA = await side(snapshotA, options.device, options.moment);
  const sideB = await side(snapshotB, options.deviceB ?? options.device, options.moment);
  // At the peaks, which peaks: of matched phases (default) or each one's own.
  const aligned =
    options.moment === 'peak' ? alignMoments(sideA, sideB, options.align, options.phase) : null;
  const a = aligned === null ? sideA : { ...sideA, moment: aligned.aMoment };
  const b = aligned === null ? sideB : { ...sideB, moment: aligned.bMoment };
  const comparison = compareMoments(a, b, { by: options.by, rules });
  const verdict =
    aligned !== null
      ? alignedVerdict(comparison, aligned, peakPhases(a, b))
      : comparisonVerdict(
          comparison,
          options.moment === 'oom'
            ? 'their first OOMs'
            : options.moment === 'final'
              ? 'the ends of their traces'
              : `event ${options.moment}`,
        );
  if (options.json)
    return jsonText(diffDocumentOf(a, b, comparison, verdict, options.limit, aligned));
  return formatDiffText(
    { a, b, comparison, verdict, limit: options.limit, aligned },
    options.bytes,
  );
}

export interface DiffText {
  a: DiffSide;
  b: DiffSide;
  comparison: Comparison;
  verdict: string;
  /** Groups listed; the rest are summed in one line. */
  limit: number;
  /** How the peaks were chosen (null: a moment given with --moment). */
  aligned: AlignedMoments | null;
}

export function formatDiffText(diff: DiffText, exact: boolean): string {
  const { a, b, comparison } = diff;
  const bytes = (value: number): string =>
    exact ? `${formatBytes(value)} (${formatExactBytes(value)} B)` : formatBytes(value);
  const signed = (value: number): string => (value === 0 ? '0 B' : formatSignedBytes(value, bytes));
  const sideLine = (name: string, side: DiffSide, activeBytes: number): string => {
    const { figures } = side.device;
    const ooms = side.device.ooms.length;
    const phase = phaseAt(phasesOf(side.snapshot, side.device).phases, side.moment);
    const where =
      phase === null
        ? ''
        : ` (in ${phase.name}${phase.step === null ? '' : ` of step ${phase.step + 1}`})`;
    return `${name}: ${side.snapshot.fileName} ${deviceLabel(side.device.device)}: peak active ${bytes(figures.active.peakBytes)}, ${figures.reservedRecorded ? `peak reserved ${bytes(figures.reserved.peakBytes)}` : 'reserved not recorded'}, ${countOf(ooms, 'OOM')}; after event ${side.moment}${where}: ${bytes(activeBytes)} active`;
  };
  const peakDelta = (field: 'active' | 'reserved'): number =>
    b.device.figures[field].peakBytes - a.device.figures[field].peakBytes;
  const lines = [
    sideLine('A', a, comparison.aActiveBytes),
    sideLine('B', b, comparison.bActiveBytes),
    a.device.figures.reservedRecorded && b.device.figures.reservedRecorded
      ? `B − A: peak active ${signed(peakDelta('active'))}, peak reserved ${signed(peakDelta('reserved'))}`
      : `B − A: peak active ${signed(peakDelta('active'))}`,
    '',
    diff.verdict,
  ];
  const matched = diff.aligned?.matchedPhases ?? [];
  if (matched.length > 0) {
    lines.push('', "each phase's peak active (the highest of its steps):");
    lines.push(
      ...alignColumns(
        [
          ['phase', 'A', 'B', 'B − A', ''],
          ...matched.map((phase) => [
            phase.name,
            bytes(phase.a.peakActiveBytes),
            bytes(phase.b.peakActiveBytes),
            signed(phase.deltaBytes),
            phase.name === diff.aligned?.phase ? '← compared below' : '',
          ]),
        ],
        ['left', 'right', 'right', 'right', 'left'],
      ),
    );
  }
  const shown = comparison.groups.slice(0, diff.limit);
  const changed = shown.filter((group) => group.deltaBytes !== 0);
  if (changed.length > 0) {
    lines.push('', `what changed, by ${comparison.by} (largest change first):`);
    const rows = changed.map((group) => [
      group.change,
      bytes(group.aBytes),
      bytes(group.bBytes),
      signed(group.deltaBytes),
      group.title.length > MAX_KEY_TEXT
        ? `${group.title.slice(0, MAX_KEY_TEXT - 1)}…`
        : group.title,
    ]);
    lines.push(
      ...alignColumns(
        [
          ['change', 'A', 'B', 'B − A', comparison.by === 'category' ? 'category' : 'where'],
          ...rows,
        ],
        ['left', 'right', 'right', 'right', 'left'],
      ),
    );
  }
  const rest = comparison.groups.slice(shown.length);
  if (rest.length > 0) {
    const delta = rest.reduce((sum, group) => sum + group.deltaBytes, 0);
    lines.push(
      `… ${countOf(rest.length, 'more group', 'more groups')} (${signed(delta)} together; --limit shows more)`,
    );
  }
  return joinLines(lines);
}
