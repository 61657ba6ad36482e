// What the UI may ask of its host. Two hosts implement it: Electron (through the preload bridge;
// files opened by path are decoded by a worker thread in main) and a plain browser (File objects
// decoded by a Web Worker in the page). Views only ever see this interface, so the same
// components ship in both builds.

import type { DecodeStage, MenuCommand, RecentFile } from '../../preload/index.d';
import type { SnapshotView } from '@shared/view/snapshot-view';

export type { DecodeStage, MenuCommand, RecentFile };

/** Job ids are unique per page load, whichever side decodes. */
export type DecodeEvent =
  | {
      readonly type: 'started';
      readonly jobId: string;
      readonly fileName: string;
      readonly totalBytes: number | null;
    }
  | {
      readonly type: 'progress';
      readonly jobId: string;
      readonly stage: DecodeStage;
      readonly bytesRead: number;
      readonly totalBytes: number | null;
    }
  | { readonly type: 'done'; readonly jobId: string; readonly view: SnapshotView }
  | {
      readonly type: 'failed';
      readonly jobId: string;
      readonly fileName: string;
      /** One line for the user: what is wrong with the file, or which bug allocscope hit. */
      readonly message: string;
      /**
       * Present when the failure is a bug in allocscope rather than the file's fault (an internal
       * error, a crashed decoder): the error and its stack, for the user to paste into a report.
       */
      readonly bugReport?: string;
    };

export interface RecentFilesAccess {
  list(): Promise<RecentFile[]>;
  open(path: string): void;
}

export interface SnapshotClient {
  readonly host: 'electron' | 'web';
  /** The host's own Open dialog (Electron); null where the page offers a file input instead. */
  readonly showOpenDialog: (() => Promise<void>) | null;
  /** A File the user chose or dropped. */
  openFile(file: File): void;
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
