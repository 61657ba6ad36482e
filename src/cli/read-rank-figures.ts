// One rank's file read and analyzed (in a worker thread of `allocscope ranks`, or in-process):
// its figures, or why it cannot be read (bad input) or what went wrong (our bug).

import { defaultDeviceIndex } from '@shared/analyzed/moments';
import {
  rankDetailOf,
  rankFiguresOf,
  type RankDetail,
  type RankFigures,
} from '@shared/compare/ranks';
import { describeInputError, isInputError } from './describe-input-error';
import { loadAnalyzedSnapshot } from './load-analyzed-snapshot';
import type { ReadSnapshotOptions } from './read-snapshot-file';

export type RankReply =
  | { path: string; figures: RankFigures; detail: RankDetail }
  | { path: string; refused: string }
  | { path: string; bug: string };

export async function readRankFigures(
  path: string,
  options: ReadSnapshotOptions = {},
): Promise<RankReply> {
  try {
    // The app's model (the allocator's state at the peak needs it; it costs about what
    // `summary` does), and the app's device: the headline figures are the summary's.
    const snapshot = await loadAnalyzedSnapshot(path, options);
    const device = snapshot.devices[defaultDeviceIndex(snapshot.devices)];
    return device === undefined
      ? { path, refused: 'no devices' }
      : { path, figures: rankFiguresOf([device.figures])!, detail: rankDetailOf(snapshot, device) };
  } catch (error) {
    return isInputError(error)
      ? { path, refused: describeInputError(error) }
      : { path, bug: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
