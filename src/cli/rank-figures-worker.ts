// A worker thread of `allocscope ranks`: reads and analyzes the files it is sent, one at a time,
// and answers with each one's figures (a few numbers, not the snapshot), or why it was refused.

import { parentPort } from 'node:worker_threads';
import { readRankFigures, type RankReply } from './read-rank-figures';

parentPort?.on('message', (path: string) => {
  void readRankFigures(path).then((reply: RankReply) => parentPort?.postMessage(reply));
});
