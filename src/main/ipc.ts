import { writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
} from 'electron';
import { IpcChannel } from '../preload/ipc-channels';
import {
  noArgumentsSchema,
  openDroppedFileArgumentsSchema,
  openRecentFileArgumentsSchema,
  recentFilesReplySchema,
  saveExportArgumentsSchema,
  saveExportResultSchema,
  settleSnapshotArgumentsSchema,
} from './ipc-schemas';
import { chooseRanksFolder, chooseSnapshotPaths } from './open-dialog';
import type { PathOpener } from './open-paths';
import { saveExportFile } from './save-export';
import type { RecentFilesStore } from './recent-files';
import { isRendererUrl } from './renderer-location';
import type { HandoverService } from './snapshot-handover';

export interface IpcContext {
  readonly handover: HandoverService;
  /** Opens what the user chose or dropped: files, or a folder's snapshots as ranks. */
  readonly openPaths: PathOpener;
  readonly recentFiles: RecentFilesStore;
  openDemoSnapshot(): void;
}

export function registerIpcHandlers({
  handover,
  openPaths,
  recentFiles,
  openDemoSnapshot,
}: IpcContext): void {
  // A throw in an invoke handler rejects the page's promise, which is what we want.
  ipcMain.handle(IpcChannel.showOpenDialog, async (event, ...args: unknown[]) => {
    assertFromRenderer(event);
    noArgumentsSchema.parse(args);
    await openPaths(await chooseSnapshotPaths(BrowserWindow.fromWebContents(event.sender)));
  });

  ipcMain.handle(IpcChannel.showOpenFolderDialog, async (event, ...args: unknown[]) => {
    assertFromRenderer(event);
    noArgumentsSchema.parse(args);
    const folder = await chooseRanksFolder(BrowserWindow.fromWebContents(event.sender));
    if (folder !== null) await openPaths([folder]);
  });

  ipcMain.handle(IpcChannel.getRecentFiles, async (event, ...args: unknown[]) => {
    assertFromRenderer(event);
    noArgumentsSchema.parse(args);
    await recentFiles.load();
    // list(), not what load() resolved to: that is the list as it was first read.
    const paths = recentFiles.list();
    return recentFilesReplySchema.parse(paths.map((path) => ({ path, fileName: basename(path) })));
  });

  onMessage(IpcChannel.openRecentFile, (args) => {
    const [path] = openRecentFileArgumentsSchema.parse(args);
    // The page may only name files the user opened before, never an arbitrary path.
    if (!recentFiles.includes(path)) throw new Error('not a recent file');
    void openPaths([path]);
  });

  onMessage(IpcChannel.openDroppedFile, (args) => {
    const [path] = openDroppedFileArgumentsSchema.parse(args);
    // A dropped folder opens as ranks, as the folder dialog does.
    void openPaths([path]);
  });

  onMessage(IpcChannel.openDemoSnapshot, (args) => {
    noArgumentsSchema.parse(args);
    openDemoSnapshot();
  });

  onMessage(IpcChannel.settleSnapshot, (args, event) => {
    const [url, outcome] = settleSnapshotArgumentsSchema.parse(args);
    handover.settle(event.sender, url, outcome);
  });

  onMessage(IpcChannel.rendererReady, (args, event) => {
    noArgumentsSchema.parse(args);
    handover.markRendererReady(event.sender);
  });

  // Exports: the page makes the file, main asks where to put it and writes it. The page names
  // neither the folder nor any other file: the user picks the path in the dialog.
  let lastExportDirectory: string | null = null;
  ipcMain.handle(IpcChannel.saveExport, async (event, ...args: unknown[]) => {
    assertFromRenderer(event);
    const [request] = saveExportArgumentsSchema.parse(args);
    const window = BrowserWindow.fromWebContents(event.sender);
    const result = await saveExportFile(request, {
      showSaveDialog: (options) =>
        window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options),
      writeFile: (path, data) => writeFile(path, data),
      defaultDirectory: () => lastExportDirectory ?? app.getPath('downloads'),
      onSaved: (path) => {
        lastExportDirectory = dirname(path);
      },
    });
    return saveExportResultSchema.parse(result);
  });
}

/** A throw in an `on` listener would be an uncaught exception in main: log and drop instead. */
function onMessage(channel: string, handle: (args: unknown[], event: IpcMainEvent) => void): void {
  ipcMain.on(channel, (event, ...args: unknown[]) => {
    try {
      assertFromRenderer(event);
      handle(args, event);
    } catch (error) {
      console.warn(`[allocscope] ignored ${channel}:`, error);
    }
  });
}

/** Only our own page's top frame may talk to main; anything else is a bug or an attack. */
function assertFromRenderer(event: IpcMainEvent | IpcMainInvokeEvent): void {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isRendererUrl(frame.url)) {
    throw new Error(`IPC from an unexpected frame: ${frame?.url ?? '(gone)'}`);
  }
}
