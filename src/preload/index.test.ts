import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AllocscopeBridge, SnapshotHandover } from './index.d';
import { IpcChannel } from './ipc-channels';

// The preload with Electron replaced by recorders: what the page gets, and what each of its calls
// sends to main. Main checks every argument again with zod (src/main/ipc-schemas.ts).

const electron = vi.hoisted(() => {
  const sent: unknown[][] = [];
  const invoked: unknown[][] = [];
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const exposed: Record<string, unknown> = {};
  const paths = new Map<unknown, string>();
  return {
    sent,
    invoked,
    listeners,
    exposed,
    paths,
    module: {
      contextBridge: {
        exposeInMainWorld: (key: string, api: unknown) => void (exposed[key] = api),
      },
      ipcRenderer: {
        send: (...args: unknown[]) => void sent.push(args),
        invoke: (...args: unknown[]) => {
          invoked.push(args);
          return Promise.resolve(undefined);
        },
        on(channel: string, listener: (event: unknown, payload: unknown) => void) {
          if (!listeners.has(channel)) listeners.set(channel, new Set());
          listeners.get(channel)!.add(listener);
        },
        removeListener(channel: string, listener: (event: unknown, payload: unknown) => void) {
          listeners.get(channel)?.delete(listener);
        },
      },
      webUtils: { getPathForFile: (file: unknown) => paths.get(file) ?? '' },
    },
  };
});

vi.mock('electron', () => electron.module);

let bridge: AllocscopeBridge;

beforeAll(async () => {
  await import('./index');
  bridge = electron.exposed['allocscope'] as AllocscopeBridge;
});

function emitFromMain(channel: string, payload: unknown): void {
  for (const listener of electron.listeners.get(channel) ?? [])
    listener({ sender: 'main' }, payload);
}

describe('the preload bridge', () => {
  it('exposes one function per channel and nothing else', () => {
    expect(Object.keys(bridge).sort()).toEqual([
      'getRecentFiles',
      'onMenuCommand',
      'onMenuExport',
      'onSnapshotHandover',
      'openDemoSnapshot',
      'openDroppedFile',
      'openRecentFile',
      'saveExport',
      'settleSnapshot',
      'showOpenDialog',
      'showOpenFolderDialog',
      'signalRendererReady',
    ]);
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true);
  });

  it('passes hand-overs on to the page, and stops when unsubscribed', () => {
    const received: SnapshotHandover[] = [];
    const unsubscribe = bridge.onSnapshotHandover((handover) => void received.push(handover));
    const handover = {
      url: `allocscope-file://snapshot/${'A'.repeat(43)}`,
      fileName: 'a.pickle',
      sizeBytes: 10,
      rankGroup: null,
    };
    emitFromMain(IpcChannel.snapshotHandover, handover);
    unsubscribe();
    emitFromMain(IpcChannel.snapshotHandover, handover);
    // The payload only: never the IPC event, which would give the page the sender.
    expect(received).toEqual([handover]);
  });

  it('sends the outcome of a hand-over with its URL', () => {
    electron.sent.length = 0;
    const url = `allocscope-file://snapshot/${'B'.repeat(43)}`;
    bridge.settleSnapshot(url, 'decoded');
    expect(electron.sent).toEqual([[IpcChannel.settleSnapshot, url, 'decoded']]);
  });

  it('sends the path of a dropped File only when it has one on disk', () => {
    electron.sent.length = 0;
    const fromDisk = new File([], 'run.pickle');
    const madeByPage = new File([], 'made.pickle');
    electron.paths.set(fromDisk, '/data/run.pickle');
    expect(bridge.openDroppedFile(fromDisk)).toBe(true);
    expect(bridge.openDroppedFile(madeByPage)).toBe(false);
    expect(electron.sent).toEqual([[IpcChannel.openDroppedFile, '/data/run.pickle']]);
  });

  it('sends the other requests on their own channels', async () => {
    electron.sent.length = 0;
    electron.invoked.length = 0;
    bridge.openRecentFile('/data/run.pickle');
    bridge.openDemoSnapshot();
    bridge.signalRendererReady();
    await bridge.showOpenDialog();
    await bridge.showOpenFolderDialog();
    await bridge.getRecentFiles();
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
    await bridge.saveExport({
      format: 'png',
      fileName: 'a.png',
      data: png,
      extra: 'dropped',
    } as Parameters<AllocscopeBridge['saveExport']>[0]);
    expect(electron.sent).toEqual([
      [IpcChannel.openRecentFile, '/data/run.pickle'],
      [IpcChannel.openDemoSnapshot],
      [IpcChannel.rendererReady],
    ]);
    expect(electron.invoked).toEqual([
      [IpcChannel.showOpenDialog],
      [IpcChannel.showOpenFolderDialog],
      [IpcChannel.getRecentFiles],
      [IpcChannel.saveExport, { format: 'png', fileName: 'a.png', data: png }],
    ]);
  });

  it('no channel is left over from decoding in main', () => {
    expect(Object.keys(IpcChannel).sort()).toEqual([
      'getRecentFiles',
      'menuCommand',
      'menuExport',
      'openDemoSnapshot',
      'openDroppedFile',
      'openRecentFile',
      'rendererReady',
      'saveExport',
      'settleSnapshot',
      'showOpenDialog',
      'showOpenFolderDialog',
      'snapshotHandover',
    ]);
  });
});
