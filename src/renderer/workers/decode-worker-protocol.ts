import type { DecodeStage } from '../../preload/index.d';
import type { SnapshotView } from '@shared/view/snapshot-view';

// Messages between the page and its decode Web Worker (./decode-worker.ts): one worker per
// file, ended by the page once the result arrives or when the user cancels.

export interface DecodeWorkerRequest {
  /** Read with file.stream(), never whole. */
  readonly file: File;
}

export type DecodeWorkerReply =
  | {
      readonly type: 'progress';
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      readonly totalBytes: number | null;
    }
  | { readonly type: 'done'; readonly view: SnapshotView }
  | { readonly type: 'failed'; readonly message: string };
