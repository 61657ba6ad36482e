import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type {
  AllocscopeBridge,
  ExportFormat,
  MenuCommand,
  RecentFile,
  SaveExportResult,
  SnapshotHandover,
} from './index.d';
import { IpcChannel } from './ipc-channels';

// One function per channel, nothing generic: the page cannot reach ipcRenderer itself.

type Unsubscribe = () => void;

function subscribe<T>(channel: string, forward: (payload: T) => void): Unsubscribe {
  const listener = (_event: IpcRendererEvent, payload: T): void => forward(payload);
  ipcRenderer.on(channel, listener);
  return () => {
    ipcRenderer.removeListener(channel, listener);
  };
}

const bridge: AllocscopeBridge = {
  showOpenDialog: () => ipcRenderer.invoke(IpcChannel.showOpenDialog) as Promise<void>,

  showOpenFolderDialog: () => ipcRenderer.invoke(IpcChannel.showOpenFolderDialog) as Promise<void>,

  openRecentFile: (path) => ipcRenderer.send(IpcChannel.openRecentFile, path),

  openDroppedFile(file) {
    // Only a File the user dropped from disk has a path; the page cannot forge one.
    const path = webUtils.getPathForFile(file);
    if (path === '') return false;
    ipcRenderer.send(IpcChannel.openDroppedFile, path);
    return true;
  },

  openDemoSnapshot: () => ipcRenderer.send(IpcChannel.openDemoSnapshot),

  getRecentFiles: () => ipcRenderer.invoke(IpcChannel.getRecentFiles) as Promise<RecentFile[]>,

  onSnapshotHandover: (listener) =>
    subscribe<SnapshotHandover>(IpcChannel.snapshotHandover, listener),

  settleSnapshot: (url, outcome) => ipcRenderer.send(IpcChannel.settleSnapshot, url, outcome),

  onMenuCommand: (listener) => subscribe<MenuCommand>(IpcChannel.menuCommand, listener),

  // Only the three fields cross, whatever else the page's object carries.
  saveExport: ({ format, fileName, data }) =>
    ipcRenderer.invoke(IpcChannel.saveExport, {
      format,
      fileName,
      data,
    }) as Promise<SaveExportResult>,

  onMenuExport: (listener) => subscribe<ExportFormat>(IpcChannel.menuExport, listener),

  signalRendererReady: () => ipcRenderer.send(IpcChannel.rendererReady),
};

contextBridge.exposeInMainWorld('allocscope', bridge);
