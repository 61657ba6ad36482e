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
  const bytesByLine = new Map<string, number>();
  const stackKey = stackKeys(snapshot);
  for (const [stackId, bytes] of bytesByStack) {
    const line = stackKey(stackId);
    bytesByLine.set(line, (bytesByLine.get(line) ?? 0) + bytes);
  }
  return [...bytesByLine]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([line, bytes]) => `${terminalField(line)} ${bytes}\n`)
    .join('');
}
