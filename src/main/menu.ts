import { app, dialog, Menu, type BaseWindow, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** File › Open…: ask for a snapshot and hand it to the page. */
  openSnapshot(): void;
}

export function installApplicationMenu(
  actions: MenuActions,
  options: { isDevServer: boolean },
): void {
  const isMac = process.platform === 'darwin';

  const fileMenu: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.openSnapshot() },
      ...(isMac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
    ],
  };

  const viewMenu: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(options.isDevServer
        ? [
            { role: 'reload' as const },
            { role: 'forceReload' as const },
            { role: 'toggleDevTools' as const },
            { type: 'separator' as const },
          ]
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  const helpMenu: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: 'About allocscope', click: (_item, window) => void showAbout(window) }],
  };

  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    fileMenu,
    ...(isMac ? [{ role: 'editMenu' as const }] : []),
    viewMenu,
    helpMenu,
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

async function showAbout(window: BaseWindow | undefined): Promise<void> {
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
