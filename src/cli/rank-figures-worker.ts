// A worker thread of `allocscope ranks`: reads and analyzes the files it is sent, one at a time,
// and answers with each one's figures (a few numbers, not the snapshot), or why it was refused.
// Its workerData: how the files are read (--max-memory).

import { parentPort, workerData } from 'node:worker_threads';
import { readRankFigures, type RankReply } from './read-rank-figures';
import type { ReadSnapshotOptions } from './read-snapshot-file';

const options = (workerData ?? {}) as ReadSnapshotOptions;

parentPort?.on('message', (path: string) => {
  void readRankFigures(path, options).then((reply: RankReply) => parentPort?.postMessage(reply));
});
