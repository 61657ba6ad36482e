// Golden SVGs of the views `allocscope render` added beside the timeline and the segments: the
// fragmentation chart and the OOM explainer, each on a real snapshot (test/fixtures/real), as
// the built command and the app's export of those tabs draw them. Compared byte for byte with
// test/golden/__golden__/views/; after a deliberate change:
//
//   npx vitest run test/golden/render-views.test.ts -u     (then read the diff)

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliOptions, type RenderCliOptions } from '../../src/cli/cli-options';
import { runRender } from '../../src/cli/run-render';
import { realSnapshotPath } from '../support/real-snapshots';

const OUT = mkdtempSync(join(tmpdir(), 'allocscope-golden-views-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

const GOLDENS: { file: string; snapshot: string; args: string[] }[] = [
  // One device, times, annotations: the chart with the active peak as the moment.
  {
    file: 'adam-fragmentation-peak.svg',
    snapshot: 'a0kuma',
    args: ['--view', 'fragmentation', '--moment', 'peak', '--width', '1200', '--height', '600'],
  },
  // Three devices, an OOM on cuda:1 (the default device): out of memory, not fragmentation.
  {
    file: 'constructor-sun-oom.svg',
    snapshot: 'Constructor-Sun',
    args: ['--view', 'oom', '--width', '1200', '--height', '900'],
  },
  {
    file: 'constructor-sun-fragmentation-dark.svg',
    snapshot: 'Constructor-Sun',
    args: ['--view', 'fragmentation', '--moment', 'oom', '--theme', 'dark'],
  },
  // An inference server's snapshot without an OOM entry: the active peak as "what if".
  {
    file: 'yiyi-oom-what-if.svg',
    snapshot: 'Yiyi',
    args: ['--view', 'oom', '--width', '1000', '--height', '800'],
  },
];

describe('golden SVGs of render --view fragmentation|oom (real snapshots)', () => {
  const lines: string[] = [];
  for (const golden of GOLDENS) {
    it(golden.file, async () => {
      const svgPath = join(OUT, golden.file);
      const input = realSnapshotPath(golden.snapshot);
      const options = parseCliOptions(['render', input, ...golden.args, '--svg', svgPath]);
      const stdout = await runRender(options as RenderCliOptions);
      lines.push(
        `$ allocscope render ${basename(input)} ${golden.args.join(' ')} --svg OUT.svg\n` +
          `${stdout.replace(svgPath, 'OUT.svg')}\n`,
      );
      const svg = readFileSync(svgPath, 'utf8');
      expect(svg.length).toBeLessThan(100_000);
      await expect(svg).toMatchFileSnapshot(
        resolve(import.meta.dirname, '__golden__/views', golden.file),
      );
    });
  }

  it('render-stdout.txt (the line render prints for each)', async () => {
    expect(lines).toHaveLength(GOLDENS.length);
    await expect(lines.join('')).toMatchFileSnapshot(
      resolve(import.meta.dirname, '__golden__/views/render-stdout.txt'),
    );
  });
});
