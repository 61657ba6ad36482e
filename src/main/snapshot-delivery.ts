import type { WebContents } from 'electron';
import type { SnapshotFileInfo } from '../preload/index.d';
import { IpcChannel } from '../preload/ipc-channels';
import { snapshotFileInfoSchema } from './ipc-schemas';
import { describeSnapshotFile } from './snapshot-file';

/**
 * Sends opened files to the page, holding them until the page says it is listening: a path from
 * the command line is known long before React has mounted.
 */
export interface SnapshotDelivery {
  /** The page that receives files; waits for its next rendererReady. */
  attach(contents: WebContents): void;
  markRendererReady(contents: WebContents): void;
  deliver(path: string): Promise<void>;
}

export function createSnapshotDelivery(): SnapshotDelivery {
  let target: WebContents | null = null;
  let rendererReady = false;
  const pending: SnapshotFileInfo[] = [];

  function flush(): void {
    if (!target || target.isDestroyed() || !rendererReady) return;
    for (const file of pending.splice(0)) {
      target.send(IpcChannel.snapshotOpened, snapshotFileInfoSchema.parse(file));
    }
  }

  return {
    attach(contents) {
      target = contents;
      rendererReady = false;
      // A reload replaces the page; its listeners are gone until it signals again.
      contents.on('did-start-loading', () => {
        if (target === contents) rendererReady = false;
      });
      contents.once('destroyed', () => {
        if (target === contents) target = null;
      });
    },

    markRendererReady(contents) {
      if (contents !== target) return;
      rendererReady = true;
      flush();
    },

    async deliver(path) {
      try {
        pending.push(await describeSnapshotFile(path));
      } catch (error) {
        console.error(
          `[allocscope] cannot open ${path}:`,
          error instanceof Error ? error.message : error,
        );
        return;
      }
      flush();
    },
  };
}
