// What the UI may ask of its host. Two hosts implement it: Electron (through the preload bridge:
// main hands over files opened by path as URLs) and a plain browser (File objects). Either way the
// page's own Web Worker reads and decodes the file (./page-decoder.ts). Views only ever see this
// interface, so the same components ship in both builds.

import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { MenuCommand, RecentFile } from '../../preload/index.d';
import type { DecodeStage, DecodeWorkerReply } from '../workers/decode-worker-protocol';

export type { DecodeStage, MenuCommand, RecentFile };

type WithJob<Reply> = { readonly jobId: string } & Reply;

/**
 * The one stream of decode events, from the page's decoder: the worker's replies, numbered by job
 * (unique per page load), with the file's name where the notice needs it.
 */
export type DecodeEvent =
  | {
      readonly type: 'started';
      readonly jobId: string;
      readonly fileName: string;
      /** Known now for a File; for a URL, it comes with the first progress event. */
      readonly totalBytes: number | null;
      /**
       * True when the file waits for other decodes to finish (cores or memory are taken); its
       * first progress event says it started.
       */
      readonly waiting: boolean;
      /**
       * The folder of ranks the file came in (an id), or null: the page shows a folder's files
       * side by side on the Ranks page.
       */
      readonly rankGroup: string | null;
      /** Where `allocscope serve` serves the file from ("gpu-box:/runs/a.pickle"), if it does. */
      readonly servedFrom?: string;
    }
  | WithJob<Extract<DecodeWorkerReply, { type: 'progress' }>>
  | {
      readonly type: 'done';
      readonly jobId: string;
      readonly snapshot: AnalyzedSnapshot;
      /** The threads that decoded it (a large file picked in the page may decode in parts). */
      readonly decodeThreads?: number;
      /** What the page shows first, when the file came with a choice (`allocscope html`). */
      readonly opening?: OpeningChoice;
    }
  /**
   * `message` is one line for the user: what is wrong with the file, or which bug allocscope hit.
   * `bugReport` is present when the failure is a bug in allocscope rather than the file's fault
   * (an internal error, a crashed decoder): the error and its stack, to paste into a report.
   */
  | (WithJob<Extract<DecodeWorkerReply, { type: 'failed' }>> & { readonly fileName: string });

/**
 * Where a snapshot's page opens when its file came with a finding to show (`allocscope html
 * --device --moment --view`): the device (its number, -1 for pinned host memory), the moment (an
 * event index, the CLI's words already resolved) and the view (the CLI's word: timeline,
 * segments, fragmentation, oom, flame, categories, steps, allocations). Null: the page's default.
 */
export interface OpeningChoice {
  readonly device: number | null;
  readonly moment: number | null;
  readonly view: string | null;
}

export interface RecentFilesAccess {
  list(): Promise<RecentFile[]>;
  open(path: string): void;
}

export interface SnapshotClient {
  readonly host: 'electron' | 'web';
  /** The host's own Open dialog (Electron); null where the page offers a file input instead. */
  readonly showOpenDialog: (() => Promise<void>) | null;
  /** The host's own folder dialog (Electron); null where the page offers a folder input. */
  readonly showOpenFolderDialog: (() => Promise<void>) | null;
  /**
   * A File the user chose or dropped; `rankGroup` names the folder of ranks it came in;
   * `memoryTimeline` is its run's memory timeline, chosen or dropped with it.
   */
  openFile(file: File, options?: { rankGroup?: string | null; memoryTimeline?: File | null }): void;
  openDemo(): void;
  cancel(jobId: string): void;
  /**
   * Progress and results of every decode. Subscribing also tells the host the page is ready for
   * files it opens by itself (the command line). Returns the unsubscribe function.
   */
  subscribe(listener: (event: DecodeEvent) => void): () => void;
  /** File › Open Recent (Electron); null in a browser. */
  readonly recentFiles: RecentFilesAccess | null;
  /** Menu items that act on the page. Returns the unsubscribe function. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  /**
   * Settles once the files the page opens by itself have been handed to the decoder (or could
   * not be had): a served page's. Absent where the page has none to wait for.
   */
  readonly pageFilesHandedOver?: Promise<void>;
}

/** Listeners of a client; events go to all of them. */
export function createListenerSet<T>() {
  const listeners = new Set<(value: T) => void>();
  return {
    add(listener: (value: T) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(value: T): void {
      for (const listener of listeners) listener(value);
    },
  };
}
