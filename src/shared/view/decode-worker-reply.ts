// What a decode worker reports, the same in Electron main (worker_threads) and in the page (a Web
// Worker): progress by stage, then the view or a failure message for the user.

import type { SnapshotView } from './snapshot-view';

/** What a decode is doing: reading bytes, building the model, computing the views. */
export type DecodeStage = 'reading' | 'building' | 'analyzing';

export type DecodeWorkerReply =
  | {
      readonly type: 'progress';
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      readonly totalBytes: number | null;
    }
  | { readonly type: 'done'; readonly view: SnapshotView }
  | { readonly type: 'failed'; readonly message: string };
