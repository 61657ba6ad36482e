// One rank's file read and analyzed (in a worker thread of `allocscope ranks`, or in-process):
// its figures, or why it cannot be read (bad input) or what went wrong (our bug).

import { rankFiguresOf, type RankFigures } from '@shared/compare/ranks';
import { describeInputError, isInputError } from './describe-input-error';
import { loadAnalyzedSnapshot } from './load-analyzed-snapshot';

export type RankReply =
  | { path: string; figures: RankFigures }
  | { path: string; refused: string }
  | { path: string; bug: string };

export async function readRankFigures(path: string): Promise<RankReply> {
  try {
    const figures = rankFiguresOf(await loadAnalyzedSnapshot(path));
    return figures === null ? { path, refused: 'no devices' } : { path, figures };
  } catch (error) {
    return isInputError(error)
      ? { path, refused: describeInputError(error) }
      : { path, bug: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
