// Folded stacks escape each frame's control characters once (not each line): the same text as
// escaping every line, and stacks told apart by their frames as the file writes them.

import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../../../test/support/analyzed';
import { tinySnapshot } from '../../../test/support/hostile-files';
import { terminalField } from '../format/terminal-safe';
import { foldedStacks } from './folded-stacks';
import { stackKeys } from './group-by';

const ESCAPE = 'model.py:1 evil\u001b[2Jname';
/** Escaped, the first frame's text; written so in the file, another frame. */
const LOOKALIKE = 'evil\\x1b[2Jname';

async function snapshotOfStacks() {
  const frame = (name: string, line: number) => ({ filename: 'model.py', line, name });
  const stacks = [
    [frame('evil\u001b[2Jname', 1)],
    [frame(LOOKALIKE, 1)],
    [frame('train\u202estep', 2), frame('evil\u001b[2Jname', 1)],
  ];
  const bytes = tinySnapshot((snapshot) => {
    const trace = (snapshot.device_traces as Record<string, unknown>[][])[0]!;
    stacks.forEach((frames, i) => {
      trace.push({
        action: 'alloc',
        addr: 0x7f0000100000 + 4096 * i,
        size: 512 * (i + 1),
        stream: 0,
        time_us: 2_000 + i,
        frames,
      });
    });
  });
  return analyzeBytes(bytes);
}

describe('folded stacks', () => {
  it('are the lines of the raw stacks, each escaped, stacks that only escape alike kept apart', async () => {
    const snapshot = await snapshotOfStacks();
    const device = snapshot.devices[0]!;
    const rows = Int32Array.from({ length: device.allocations.count }, (_, row) => row);
    const folded = foldedStacks(snapshot, device, rows)
      .split('\n')
      .filter((line) => line !== '');
    // Every stack's raw line, escaped whole, with its bytes.
    const raw = stackKeys(snapshot);
    const bytesByLine = new Map<string, number>();
    for (let row = 0; row < device.allocations.count; row++) {
      const line = raw(device.allocations.stackId[row]!);
      bytesByLine.set(line, (bytesByLine.get(line) ?? 0) + device.allocations.sizeBytes[row]!);
    }
    const expected = [...bytesByLine]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([line, bytes]) => `${terminalField(line)} ${bytes}`);
    expect(folded).toEqual(expected);
    // The escape sequence and its look-alike: two lines of the same text.
    const escapedFrame = terminalField(ESCAPE);
    expect(escapedFrame).toBe(`model.py:1 ${LOOKALIKE}`);
    expect(folded.filter((line) => line.startsWith(`${escapedFrame} `))).toHaveLength(2);
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    for (const line of folded) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });
});
