// Messages between the page and its decode Web Worker (./decode-worker.ts): one worker per
// file, ended by the page once the result arrives or when the user cancels.

export interface DecodeWorkerRequest {
  /** Read with file.stream(), never whole. */
  readonly file: File;
}

export type { DecodeWorkerReply } from '@shared/view/decode-worker-reply';
