import type { AnalyzedSnapshotData } from '@shared/analyzed/analyzed-snapshot';

// Messages between the page and its decode Web Worker (./decode-worker.ts): one worker per file,
// ended by the page once the result arrives or when the user cancels (which also aborts the
// worker's fetch). Both builds decode here: the worker gets a File or a URL, reads either as a
// stream, and from there on the code is one (./snapshot-source.ts).

export type DecodeWorkerRequest =
  /** A File the user chose or dropped: read with file.stream(), never whole. */
  | {
      readonly kind: 'file';
      readonly file: File;
      /**
       * The size of the file the page was made from, when `file` is not it byte for byte (the
       * snapshot `allocscope html` gzipped into the page): the size the page shows, as the CLI.
       */
      readonly originalBytes?: number;
      /** The same run's memory timeline, opened with this trace: its categories are given to it. */
      readonly memoryTimeline?: File;
    }
  /**
   * A URL the worker fetches and reads the body of as it arrives: in Electron, a file main hands
   * over (allocscope-file://snapshot/<token>); in the web build, the demo snapshot beside the page.
   */
  | { readonly kind: 'url'; readonly url: string; readonly fileName: string };

/** What a decode is doing: reading bytes, building the model, computing the views. */
export type DecodeStage = 'reading' | 'building' | 'analyzing';

/** What the worker reports: progress by stage, then the snapshot or a failure for the user. */
export type DecodeWorkerReply =
  | {
      readonly type: 'progress';
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      /** The file's size when known (File.size, Content-Length). */
      readonly totalBytes: number | null;
    }
  /** Plain data, its typed arrays transferred; the page adopts it. */
  | { readonly type: 'done'; readonly snapshot: AnalyzedSnapshotData }
  | {
      readonly type: 'failed';
      /** One line for the user: what is wrong with the file, or that allocscope hit a bug. */
      readonly message: string;
      /** Present when the failure is a bug in allocscope, not the file: the error and its stack. */
      readonly bugReport?: string;
    };
