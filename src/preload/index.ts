import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AllocscopeBridge, SnapshotFileInfo } from './index.d';
import { IpcChannel } from './ipc-channels';

// One function per channel, nothing generic: the page cannot reach ipcRenderer itself.
const bridge: AllocscopeBridge = {
  showOpenDialog: () =>
    ipcRenderer.invoke(IpcChannel.showOpenDialog) as Promise<SnapshotFileInfo | null>,

  onSnapshotOpened(listener) {
    const forward = (_event: IpcRendererEvent, file: SnapshotFileInfo): void => listener(file);
    ipcRenderer.on(IpcChannel.snapshotOpened, forward);
    return () => {
      ipcRenderer.removeListener(IpcChannel.snapshotOpened, forward);
    };
  },

  signalRendererReady: () => ipcRenderer.send(IpcChannel.rendererReady),
};

contextBridge.exposeInMainWorld('allocscope', bridge);
