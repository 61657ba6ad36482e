// What a decode worker reports, the same in Electron main (worker_threads) and in the page (a Web
// Worker): progress by stage, then the view or a failure message for the user.

import type { AnalyzedSnapshotData } from './analyzed-snapshot';

/** What a decode is doing: reading bytes, building the model, computing the views. */
export type DecodeStage = 'reading' | 'building' | 'analyzing';

export type DecodeWorkerReply =
  | {
      readonly type: 'progress';
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      readonly totalBytes: number | null;
    }
  | { readonly type: 'done'; readonly view: AnalyzedSnapshotData }
  | {
      readonly type: 'failed';
      /** One line for the user: what is wrong with the file, or that allocscope hit a bug. */
      readonly message: string;
      /** Present when the failure is a bug in allocscope, not the file: the error and its stack. */
      readonly bugReport?: string;
    };
