import { app, BrowserWindow, session } from 'electron';
import { registerIpcHandlers } from './ipc';
import { snapshotPathsFromArgv } from './launch-arguments';
import { installApplicationMenu } from './menu';
import { chooseSnapshotPath } from './open-dialog';
import { isDevServer } from './renderer-location';
import { hardenWebContents, restrictSession } from './security';
import { createSnapshotDelivery } from './snapshot-delivery';
import { createMainWindow } from './window';

// Lifecycle only: each concern lives in its own module.

const delivery = createSnapshotDelivery();
let mainWindow: BrowserWindow | null = null;

hardenWebContents();

// `npm start -- file.pickle` runs from the package root; INIT_CWD is where the user typed it.
const launchPaths = snapshotPathsFromArgv(process.argv, {
  isDefaultApp: process.defaultApp === true,
  cwd: (!app.isPackaged && process.env['INIT_CWD']) || process.cwd(),
});

// macOS hands over files (Finder, `open -a`) through this event, possibly before `ready`.
app.on('open-file', (event, path) => {
  event.preventDefault();
  void delivery.deliver(path);
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

function openMainWindow(): void {
  const window = createMainWindow();
  delivery.attach(window.webContents);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
}

async function openSnapshotFromMenu(): Promise<void> {
  const path = await chooseSnapshotPath(mainWindow);
  if (path !== null) await delivery.deliver(path);
}

async function start(): Promise<void> {
  await app.whenReady();
  restrictSession(session.defaultSession);
  registerIpcHandlers(delivery);
  installApplicationMenu({ openSnapshot: () => void openSnapshotFromMenu() }, { isDevServer });
  openMainWindow();
  for (const path of launchPaths) await delivery.deliver(path);

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });
}

start().catch((error: unknown) => {
  console.error('[allocscope] failed to start:', error);
  app.exit(1);
});
