// `allocscope top`: who holds the memory at one moment (default: where every view starts, the
// first OOM else the active peak), grouped; text, or the allocscope.top/1 document with --json;
// --folded also writes the live memory as folded stacks.

import { basename } from 'node:path';
import { defaultMoment, firstOomEvent } from '@shared/analyzed/moments';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { aliveRowsAt } from '@shared/holders/alive-rows';
import { DEFAULT_CATEGORY_RULES } from '@shared/holders/category-rules';
import { foldedStacks } from '@shared/holders/folded-stacks';
import { GROUP_BY_NAMES } from '@shared/holders/group-by';
import { topDocumentOf, topResultOf, type TopResult } from '@shared/report/top-document';
import { alignColumns } from './align-columns';
import type { TopCliOptions } from './cli-options';
import {
  cliDeviceName,
  loadAnalyzedSnapshot,
  type SnapshotLoader,
  chosenDevice,
} from './load-analyzed-snapshot';
import { readRules } from './read-rules';
import { resolveMoment, writeOutput } from './run-render';
import { jsonText } from '@shared/format/json-text';
import { joinLines } from './text-lines';
import { countOf } from '@shared/format/plural';
import { terminalField } from '@shared/format/terminal-safe';
import { printErrLine } from './terminal-output';

/** Longest group key in the text (keys of the stack grouping are whole stacks). */
const MAX_KEY_TEXT = 120;

export async function runTop(
  options: TopCliOptions,
  load: SnapshotLoader = loadAnalyzedSnapshot,
): Promise<string> {
  // Checked before the file is read: a bad rules file fails at once (a bad --grep was refused
  // with the options).
  const rules = options.rules === null ? DEFAULT_CATEGORY_RULES : await readRules(options.rules);
  const snapshot = await load(options.file, options);
  const device = chosenDevice(snapshot, options.device);
  const moment =
    options.moment === null ? defaultMoment(device) : resolveMoment(device, options.moment);
  const result = topResultOf(snapshot, device, {
    moment,
    by: options.by,
    grep: options.grep,
    limit: options.limit,
    rules,
    rulesSource: options.rules === null ? 'built-in' : basename(options.rules),
  });
  let wrote: string | null = null;
  if (options.folded !== null) {
    const alive = aliveRowsAt(device, moment);
    await writeOutput(options.folded, foldedStacks(snapshot, device, alive));
    // Which file, and what is in it: the text's last line, or stderr beside the JSON.
    wrote = terminalField(
      `wrote ${options.folded}: folded stacks of the ${countOf(alive.length, 'allocation')} alive after event ${moment}`,
    );
  }
  if (options.json) {
    if (wrote !== null) printErrLine(`allocscope: ${wrote}`);
    return jsonText(topDocumentOf(result));
  }
  const momentName =
    moment === firstOomEvent(device)
      ? 'the first OOM'
      : moment === device.figures.active.peakEventIndex
        ? 'the active peak'
        : null;
  const text = formatTopText(result, { exactBytes: options.bytes, momentName });
  return wrote === null ? text : `${text}\n\n${wrote}`;
}

export function formatTopText(
  result: TopResult,
  options: { exactBytes: boolean; momentName: string | null },
): string {
  const bytes = (value: number): string =>
    options.exactBytes ? `${formatBytes(value)} (${formatExactBytes(value)})` : formatBytes(value);
  const at = `event ${result.moment}${options.momentName === null ? '' : ` (${options.momentName})`}`;
  const grouping = GROUP_BY_NAMES[result.by];
  const lines = [
    `${result.file} · ${cliDeviceName(result.device)} at ${at}: ${bytes(result.activeBytes)} active`,
    result.grep === null
      ? `by ${grouping}${result.by === 'category' ? ` (rules: ${result.rules})` : ''}`
      : `by ${grouping}, allocations matching /${result.grep}/: ${bytes(result.matchedBytes)} in ${result.matchedAllocations} allocations`,
    '',
  ];
  const share = (value: number): string =>
    result.activeBytes > 0 ? `${((100 * value) / result.activeBytes).toFixed(1)}%` : '-';
  const rows = [['bytes', 'share', 'allocations', grouping]];
  for (const group of result.groups) {
    rows.push([
      bytes(group.bytes),
      share(group.bytes),
      String(group.allocations),
      cutKey(group.title),
    ]);
  }
  const { count, bytes: omittedBytes, allocations } = result.omitted;
  if (count > 0) {
    rows.push([
      bytes(omittedBytes),
      share(omittedBytes),
      String(allocations),
      `(${countOf(count, 'more group', 'more groups')})`,
    ]);
  }
  if (result.groups.length === 0) lines.push('no allocations alive at this moment match');
  else lines.push(...alignColumns(rows));
  return joinLines(lines);
}

/** Long keys keep their end: the innermost frames of a stack, the file name of a path. */
function cutKey(key: string): string {
  return key.length <= MAX_KEY_TEXT ? key : `…${key.slice(-(MAX_KEY_TEXT - 1))}`;
}
