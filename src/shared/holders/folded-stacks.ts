// The live memory at a moment as folded stacks, the text flamegraph.pl, speedscope and inferno
// read: one line per distinct stack, its frames outermost first joined by ';', a space, and its
// bytes as an integer. Full stacks (every frame), so another tool can fold them its own way;
// allocations without a stack are one line "(no stack recorded) BYTES". The lines' weights add up
// to the active bytes at that moment. A frame's control characters are written escaped (as the
// CLI prints them): the file is text people also read in a terminal.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { terminalField } from '../format/terminal-safe';
import { stackKeys } from './group-by';

export function foldedStacks(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  device: Pick<AnalyzedDevice, 'allocations'>,
  rows: ArrayLike<number>,
): string {
  const table = device.allocations;
  const bytesByStack = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const stackId = table.stackId[row]!;
    bytesByStack.set(stackId, (bytesByStack.get(stackId) ?? 0) + table.sizeBytes[row]!);
  }
  // Lines are told apart by their frames as written in the file, and written escaped: each frame
  // escaped once, not each line (a frame of thousands of control characters in every stack made
  // the escaping of every line 2.5 s of a 3 MB file: fuzz campaign seed 20261141, case 1057).
  const lines = new Map<string, { bytes: number; escaped: string }>();
  const stackKey = stackKeys(snapshot);
  const escapedKey = stackKeys(snapshot, terminalField);
  for (const [stackId, bytes] of bytesByStack) {
    const line = stackKey(stackId);
    const known = lines.get(line);
    if (known === undefined) lines.set(line, { bytes, escaped: escapedKey(stackId) });
    else known.bytes += bytes;
  }
  return [...lines]
    .sort((a, b) => b[1].bytes - a[1].bytes || (a[0] < b[0] ? -1 : 1))
    .map(([, { bytes, escaped }]) => `${escaped} ${bytes}\n`)
    .join('');
}
