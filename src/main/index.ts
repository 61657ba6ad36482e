import { join } from 'node:path';
import { app, BrowserWindow, dialog, protocol, session } from 'electron';
import { IpcChannel } from '../preload/ipc-channels';
import { registerIpcHandlers } from './ipc';
import { menuCommandSchema } from './ipc-schemas';
import { snapshotPathsFromArgv } from './launch-arguments';
import { installApplicationMenu } from './menu';
import { chooseRanksFolder, chooseSnapshotPaths } from './open-dialog';
import { createPathOpener, nodePathReader } from './open-paths';
import { createRecentFilesStore } from './recent-files';
import { isDevServer } from './renderer-location';
import { hardenWebContents, restrictSession } from './security';
import { createHandoverService } from './snapshot-handover';
import { nodeSnapshotFileSystem, snapshotProtocolHandler } from './snapshot-protocol';
import { createSnapshotTokenTable } from './snapshot-tokens';
import { SNAPSHOT_SCHEME, SNAPSHOT_SCHEME_PRIVILEGES } from './snapshot-url';
import { createMainWindow } from './window';

// Lifecycle only: each concern lives in its own module.

const DEMO_FILE_NAME = 'demo-snapshot.pickle';
const demoSnapshotPath = join(app.getAppPath(), 'resources', DEMO_FILE_NAME);

const recentFiles = createRecentFilesStore(join(app.getPath('userData'), 'recent-files.json'));

// Files reach the page as allocscope-file://snapshot/<token> URLs that its decode worker fetches;
// the token table is all the page can read from disk.
const tokens = createSnapshotTokenTable();
const handover = createHandoverService({
  tokens,
  onDecoded(path) {
    if (path === demoSnapshotPath) return;
    app.addRecentDocument(path);
    void recentFiles.add(path).then(refreshMenu);
  },
});

let mainWindow: BrowserWindow | null = null;

/** Files as they are, folders as the ranks of one job (open-paths.ts). */
const openPaths = createPathOpener({
  handover,
  reader: nodePathReader,
  notify({ title, detail }) {
    // macOS may name a folder (open-file) before the app is ready for a dialog.
    void app.whenReady().then(() => {
      const options = { type: 'info' as const, message: title, detail };
      return mainWindow
        ? dialog.showMessageBox(mainWindow, options)
        : dialog.showMessageBox(options);
    });
  },
});

hardenWebContents();

// Before `ready`, as Electron requires.
protocol.registerSchemesAsPrivileged([
  { scheme: SNAPSHOT_SCHEME, privileges: SNAPSHOT_SCHEME_PRIVILEGES },
]);

// `npm start -- file.pickle` runs from the package root; INIT_CWD is where the user typed it.
const launchPaths = snapshotPathsFromArgv(process.argv, {
  isDefaultApp: process.defaultApp === true,
  cwd: (!app.isPackaged && process.env['INIT_CWD']) || process.cwd(),
});

// macOS hands over files (Finder, `open -a`, the Dock's recent list) through this event,
// possibly before `ready`; the hand-over waits for the page either way.
app.on('open-file', (event, path) => {
  event.preventDefault();
  void openPaths([path]);
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

function openMainWindow(): void {
  const window = createMainWindow();
  handover.attach(window.webContents);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
}

async function openSnapshotFromMenu(): Promise<void> {
  if (!mainWindow) openMainWindow();
  await openPaths(await chooseSnapshotPaths(mainWindow));
}

async function openFolderFromMenu(): Promise<void> {
  if (!mainWindow) openMainWindow();
  const folder = await chooseRanksFolder(mainWindow);
  if (folder !== null) await openPaths([folder]);
}

function openDemoSnapshot(): void {
  handover.open(demoSnapshotPath, { fileName: DEMO_FILE_NAME });
}

function refreshMenu(): void {
  installApplicationMenu(
    {
      openSnapshot: () => void openSnapshotFromMenu(),
      openFolder: () => void openFolderFromMenu(),
      openRecentFile: (path) => void openPaths([path]),
      clearRecentFiles() {
        app.clearRecentDocuments();
        void recentFiles.clear().then(refreshMenu);
      },
      openDemoSnapshot,
      sendToPage(command) {
        const contents = mainWindow?.webContents;
        if (contents && !contents.isDestroyed()) {
          contents.send(IpcChannel.menuCommand, menuCommandSchema.parse(command));
        }
      },
    },
    { isDevServer, recentPaths: recentFiles.list() },
  );
}

async function start(): Promise<void> {
  await app.whenReady();
  restrictSession(session.defaultSession);
  session.defaultSession.protocol.handle(
    SNAPSHOT_SCHEME,
    snapshotProtocolHandler(tokens, nodeSnapshotFileSystem),
  );
  registerIpcHandlers({ handover, openPaths, recentFiles, openDemoSnapshot });
  await recentFiles.load();
  refreshMenu();
  openMainWindow();
  await openPaths(launchPaths);

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });
}

start().catch((error: unknown) => {
  console.error('[allocscope] failed to start:', error);
  app.exit(1);
});
