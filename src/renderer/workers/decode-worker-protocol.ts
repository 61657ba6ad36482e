import type { AnalyzedSnapshotData } from '@shared/analyzed/analyzed-snapshot';
import type { CurvePreviewData } from '@shared/analysis/curve-preview';

// Messages between the page and its decode Web Worker (./decode-worker.ts): one worker per file,
// ended by the page once the result arrives or when the user cancels (which also aborts the
// worker's fetch). Both builds decode here: the worker gets a File or a URL, reads either as a
// stream, and from there on the code is one (./snapshot-source.ts).

/** A snapshot to decode: what the page hands a worker for a file. */
export type DecodeSnapshotRequest =
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
      /**
       * Threads to decode it on (the page's decode budget, or ?jobs=N): from 2, a pickle of
       * protocol 4-5 is cut into parts, each but the first on a worker of its own that the page
       * starts when asked ('start-parts'; ./decode-in-page-parts.ts). Absent: one.
       */
      readonly threads?: number;
    }
  /**
   * A URL the worker fetches and reads the body of as it arrives: in Electron, a file main hands
   * over (allocscope-file://snapshot/<token>); in the web build, the demo snapshot beside the page.
   */
  | {
      readonly kind: 'url';
      readonly url: string;
      readonly fileName: string;
      /**
       * Where the server answers byte ranges of the file (`allocscope serve`), its size and the
       * threads to decode it on: from 2, it is cut into parts as a picked File is, each read by
       * range requests (./range-byte-source.ts). Absent: read as a stream, on one thread.
       */
      readonly ranges?: { readonly sizeBytes: number; readonly threads: number };
    };

export type DecodeWorkerRequest =
  | DecodeSnapshotRequest
  /** To a worker the page started for a part of another worker's file. */
  | { readonly kind: 'part'; readonly job: PagePartJob }
  /** A part's worker failed (it could not start, or crashed): the file decodes on one thread. */
  | { readonly kind: 'part-lost' };

/** Where a decode in parts reads the file: the File picked, or the URL serve answers ranges at. */
export type PartBytes = Blob | { readonly url: string; readonly sizeBytes: number };

/** What a part's worker is given (./decode-in-page-parts.ts); its ports are transferred. */
export interface PagePartJob {
  readonly bytes: PartBytes;
  /** Where each part starts: the spine's plan. */
  readonly starts: readonly number[];
  /** Its part (>= 1). */
  readonly part: number;
  /** Where it sends its scan of the part before its own: one port per later part's worker. */
  readonly toLater: readonly MessagePort[];
  /** Where the scans of the parts before that one come from. */
  readonly fromEarlier: readonly MessagePort[];
  /** Where it sends its decoded part (or null): the spine. */
  readonly toSpine: MessagePort;
}

/** What a decode is doing: reading bytes, building the model, computing the views. */
export type DecodeStage = 'reading' | 'building' | 'analyzing';

/**
 * What the worker reports: progress by stage (for a file cut into parts, first the parts' workers
 * it wants), then the snapshot or a failure for the user.
 */
export type DecodeWorkerReply =
  | {
      readonly type: 'progress';
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      /** The file's size when known (File.size, Content-Length). */
      readonly totalBytes: number | null;
      /**
       * The curves of the trace entries decoded so far (a pickle read as a stream, or the first
       * part of one decoded in parts): the page draws them while it waits.
       */
      readonly preview?: CurvePreviewData;
    }
  /** Start one worker per job and hand it its job (as a 'part' request): the file's parts. */
  | { readonly type: 'start-parts'; readonly jobs: readonly PagePartJob[] }
  /** The parts were given up (the file decodes on one thread): end their workers. */
  | { readonly type: 'end-parts' }
  /** Plain data, its typed arrays transferred; the page adopts it. */
  | {
      readonly type: 'done';
      readonly snapshot: AnalyzedSnapshotData;
      /** The threads that decoded it: the parts of a decode in parts; absent: one. */
      readonly threads?: number;
    }
  | {
      readonly type: 'failed';
      /** One line for the user: what is wrong with the file, or that allocscope hit a bug. */
      readonly message: string;
      /** Present when the failure is a bug in allocscope, not the file: the error and its stack. */
      readonly bugReport?: string;
    };
