import type { DecodeWorkerReply } from '@shared/view/decode-worker-reply';

// Messages between main and its decode worker (src/main/decode-worker.ts). One worker per file;
// main ends it once the view (or the failure) has arrived, or when the user cancels.

export interface DecodeWorkerInput {
  readonly path: string;
}

/** The worker's reports (the page's decode worker sends the same). */
export type DecodeWorkerMessage = DecodeWorkerReply;
