import type { DecodeStage } from '../preload/index.d';
import type { SnapshotView } from '@shared/view/snapshot-view';

// Messages between main and its decode worker (src/main/decode-worker.ts). One worker per file;
// main ends it once the view (or the failure) has arrived, or when the user cancels.

export interface DecodeWorkerInput {
  readonly path: string;
}

export type DecodeWorkerMessage =
  | {
      readonly type: 'progress';
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      readonly totalBytes: number | null;
    }
  | { readonly type: 'done'; readonly view: SnapshotView }
  | { readonly type: 'failed'; readonly message: string };
