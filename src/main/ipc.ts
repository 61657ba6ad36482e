import { BrowserWindow, ipcMain, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import { IpcChannel } from '../preload/ipc-channels';
import { noArgumentsSchema, openDialogReplySchema } from './ipc-schemas';
import { chooseSnapshotPath } from './open-dialog';
import { isRendererUrl } from './renderer-location';
import type { SnapshotDelivery } from './snapshot-delivery';
import { describeSnapshotFile } from './snapshot-file';

export function registerIpcHandlers(delivery: SnapshotDelivery): void {
  // A throw in an invoke handler rejects the page's promise, which is what we want.
  ipcMain.handle(IpcChannel.showOpenDialog, async (event, ...args: unknown[]) => {
    assertFromRenderer(event);
    noArgumentsSchema.parse(args);
    const path = await chooseSnapshotPath(BrowserWindow.fromWebContents(event.sender));
    const reply = path === null ? null : await describeSnapshotFile(path);
    return openDialogReplySchema.parse(reply);
  });

  // A throw in an `on` listener would be an uncaught exception in main: log and drop instead.
  ipcMain.on(IpcChannel.rendererReady, (event, ...args: unknown[]) => {
    try {
      assertFromRenderer(event);
      noArgumentsSchema.parse(args);
    } catch (error) {
      console.warn(`[allocscope] ignored ${IpcChannel.rendererReady}:`, error);
      return;
    }
    delivery.markRendererReady(event.sender);
  });
}

/** Only our own page's top frame may talk to main; anything else is a bug or an attack. */
function assertFromRenderer(event: IpcMainEvent | IpcMainInvokeEvent): void {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isRendererUrl(frame.url)) {
    throw new Error(`IPC from an unexpected frame: ${frame?.url ?? '(gone)'}`);
  }
}
