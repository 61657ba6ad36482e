import type { MenuItemConstructorOptions } from 'electron';
import type { ExportFormat, MenuCommand } from '../preload/index.d';

// The application menu as data: no Electron calls here, so it is unit-tested.

export interface MenuActions {
  /** File › Open…: ask for snapshots and decode them. */
  openSnapshot(): void;
  /** File › Open Folder of Ranks…: ask for a folder and decode its snapshots as ranks. */
  openFolder(): void;
  openRecentFile(path: string): void;
  clearRecentFiles(): void;
  openDemoSnapshot(): void;
  /** Items whose work is in the page (tabs). */
  sendToPage(command: MenuCommand): void;
  /** File › Export › …: the current tab's page makes the file (and main saves it). */
  exportFromPage(format: ExportFormat): void;
  showAbout(): void;
}

export interface MenuOptions {
  readonly isDevServer: boolean;
  /** Most recent first. */
  readonly recentPaths: readonly string[];
}

const EXPORT_ITEMS: readonly (readonly [ExportFormat, string])[] = [
  ['png', 'PNG Image of the Chart…'],
  ['svg', 'SVG Image of the Chart…'],
  ['json', 'JSON Report…'],
  ['csv', 'CSV of the Largest Allocations…'],
];

export function applicationMenuTemplate(
  actions: MenuActions,
  options: MenuOptions,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';

  const recentItems: MenuItemConstructorOptions[] =
    options.recentPaths.length === 0
      ? [{ label: 'No recent files', enabled: false }]
      : [
          ...options.recentPaths.map((path): MenuItemConstructorOptions => ({
            // `&` would become a mnemonic on Windows and Linux.
            label: path.replaceAll('&', '&&'),
            click: () => actions.openRecentFile(path),
          })),
          { type: 'separator' },
          { label: 'Clear Recent', click: () => actions.clearRecentFiles() },
        ];

  // The page handles these keys itself (it knows which tab is current), so the accelerators are
  // shown but not registered; clicking the item sends the same command.
  const pageItem = (label: string, accelerator: string, command: MenuCommand) => ({
    label,
    accelerator,
    registerAccelerator: false,
    click: () => actions.sendToPage(command),
  });

  const fileMenu: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      {
        id: 'file-open',
        label: 'Open…',
        accelerator: 'CmdOrCtrl+O',
        click: () => actions.openSnapshot(),
      },
      {
        id: 'file-open-folder',
        label: 'Open Folder of Ranks…',
        accelerator: 'CmdOrCtrl+Shift+O',
        click: () => actions.openFolder(),
      },
      { label: 'Open Recent', submenu: recentItems },
      { label: 'Open the Demo Snapshot', click: () => actions.openDemoSnapshot() },
      { type: 'separator' },
      {
        id: 'file-export',
        label: 'Export',
        submenu: EXPORT_ITEMS.map(([format, label]): MenuItemConstructorOptions => ({
          id: `file-export-${format}`,
          label,
          click: () => actions.exportFromPage(format),
        })),
      },
      { type: 'separator' },
      pageItem('Close Tab', 'CmdOrCtrl+W', 'close-tab'),
      ...(isMac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
    ],
  };

  const viewMenu: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      pageItem('Next Tab', 'Ctrl+Tab', 'next-tab'),
      pageItem('Previous Tab', 'Ctrl+Shift+Tab', 'previous-tab'),
      { type: 'separator' },
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
    submenu: [{ label: 'About allocscope', click: () => actions.showAbout() }],
  };

  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    fileMenu,
    ...(isMac ? [{ role: 'editMenu' as const }] : []),
    viewMenu,
    helpMenu,
  ];
}
