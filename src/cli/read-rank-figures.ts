// One rank's file read and analyzed (in a worker thread of `allocscope ranks`, or in-process):
// its figures, or why it cannot be read (bad input) or what went wrong (our bug).

import { analyzeSnapshot } from '@shared/analysis/snapshot-analysis';
import { snapshotFiguresOf } from '@shared/analyzed/device-figures';
import { rankFiguresOf, type RankFigures } from '@shared/compare/ranks';
import { describeInputError, isInputError } from './describe-input-error';
import { readSnapshotFile } from './read-snapshot-file';

export type RankReply =
  | { path: string; figures: RankFigures }
  | { path: string; refused: string }
  | { path: string; bug: string };

export async function readRankFigures(path: string): Promise<RankReply> {
  try {
    // The summary's path: decode and analyse, the headline figures, no allocation table.
    const { model, fileName, fileBytes } = await readSnapshotFile(path);
    const snapshot = snapshotFiguresOf(model, analyzeSnapshot(model), {
      fileName,
      fileBytes,
      top: 0,
    });
    const figures = rankFiguresOf(snapshot.devices);
    return figures === null ? { path, refused: 'no devices' } : { path, figures };
  } catch (error) {
    return isInputError(error)
      ? { path, refused: describeInputError(error) }
      : { path, bug: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
