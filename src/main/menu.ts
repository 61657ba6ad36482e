import { app, BrowserWindow, dialog, Menu } from 'electron';
import { applicationMenuTemplate, type MenuActions, type MenuOptions } from './menu-template';

export type { MenuActions, MenuOptions } from './menu-template';

export function installApplicationMenu(
  actions: Omit<MenuActions, 'showAbout'>,
  options: MenuOptions,
): void {
  const template = applicationMenuTemplate(
    { ...actions, showAbout: () => void showAbout(BrowserWindow.getFocusedWindow()) },
    options,
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
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
