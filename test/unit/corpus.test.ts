// A larger corpus of real snapshots, where someone has one: ALLOCSCOPE_CORPUS=/path/to/folder.
// Each file opens (or is refused as not a snapshot, never a bug) and its summary is valid; the
// figures match the independent Python reference. Without the variable: skipped, and said so.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryDocumentSchema } from '@shared/report/summary-report';
import { corpusSnapshotPaths } from '../support/real-snapshots';
import { referenceSummary, summarizeFile, withoutWarnings } from '../support/summarize';

const paths = corpusSnapshotPaths();

if (paths.length === 0) {
  describe('a larger corpus of real snapshots', () => {
    it.skip('skipped: no corpus (set ALLOCSCOPE_CORPUS to a folder of snapshots)', () => {});
  });
} else {
  describe.each(paths.map((path) => [basename(path), path]))('corpus: %s', (_name, path) => {
    it('matches the Python reference figure for figure', async () => {
      const ours = await summarizeFile(path, 20);
      expect(summaryDocumentSchema.safeParse(ours).success).toBe(true);
      expect(withoutWarnings(ours)).toEqual(withoutWarnings(referenceSummary(path, 20)));
    }, 600_000);
  });
}
