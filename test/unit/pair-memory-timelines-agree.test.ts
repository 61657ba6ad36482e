// Files chosen together: each trace gets the timeline of its run (by content first, then by the
// longest common start of the names); a timeline without a trace, and everything else, opens
// alone, in the order given.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairMemoryTimelines } from '../../src/renderer/api/pair-memory-timelines';

const DIR = resolve(import.meta.dirname, '../fixtures/profiler');
const fileOf = (name: string, as = name): File => new File([readFileSync(resolve(DIR, name))], as);

const names = (pairs: Awaited<ReturnType<typeof pairMemoryTimelines>>) =>
  pairs.map((pair) => [pair.file.name, pair.memoryTimeline?.name ?? null]);

describe('pairMemoryTimelines', () => {
  it('pairs each trace with the timeline of its run, told by content, matched by name', async () => {
    const files = [
      fileOf('clean.memory-timeline.json'),
      fileOf('leak.pt.trace.json.gz'),
      fileOf('leak.memory-timeline.raw.json.gz'),
      fileOf('clean.pt.trace.json.gz'),
      fileOf('manifest.json'),
    ];
    expect(names(await pairMemoryTimelines(files))).toEqual([
      ['leak.pt.trace.json.gz', 'leak.memory-timeline.raw.json.gz'],
      ['clean.pt.trace.json.gz', 'clean.memory-timeline.json'],
      ['manifest.json', null],
    ]);
  });

  it('reads what a file is from its content, not its name', async () => {
    const files = [
      fileOf('leak.memory-timeline.raw.json.gz', 'a.gz'),
      fileOf('leak.pt.trace.json.gz', 'b.json'),
    ];
    expect(names(await pairMemoryTimelines(files))).toEqual([['b.json', 'a.gz']]);
  });

  it('two timelines and no trace: each opens alone', async () => {
    const files = [fileOf('leak.memory-timeline.json'), fileOf('leak.memory-timeline.raw.json.gz')];
    expect(names(await pairMemoryTimelines(files))).toEqual([
      ['leak.memory-timeline.json', null],
      ['leak.memory-timeline.raw.json.gz', null],
    ]);
  });
});
