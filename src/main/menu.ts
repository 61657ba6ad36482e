import { app, BrowserWindow, dialog, Menu } from 'electron';
import type { ExportFormat } from '../preload/index.d';
import { IpcChannel } from '../preload/ipc-channels';
import { exportFormatSchema } from './ipc-schemas';
import { applicationMenuTemplate, type MenuActions, type MenuOptions } from './menu-template';

export type { MenuActions, MenuOptions } from './menu-template';

export function installApplicationMenu(
  actions: Omit<MenuActions, 'showAbout' | 'exportFromPage'>,
  options: MenuOptions,
): void {
  const template = applicationMenuTemplate(
    {
      ...actions,
      exportFromPage,
      showAbout: () => void showAbout(BrowserWindow.getFocusedWindow()),
    },
    options,
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** The page shows one tab at a time; that tab's export bar answers (a page without one ignores it). */
function exportFromPage(format: ExportFormat): void {
  const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const contents = window?.webContents;
  if (contents && !contents.isDestroyed()) {
    contents.send(IpcChannel.menuExport, exportFormatSchema.parse(format));
  }
}

async function showAbout(window: BrowserWindow | null): Promise<void> {
  const options: Electron.MessageBoxOptions = {
    type: 'info',
    title: 'About allocscope',
    message: `allocscope ${app.getVersion()}`,
    detail: [
      'Open PyTorch CUDA memory snapshots offline and see where the GPU memory went.',
      '',
      `Electron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
    ].join('\n'),
    buttons: ['OK'],
  };
  if (window) await dialog.showMessageBox(window, options);
  else await dialog.showMessageBox(options);
}
