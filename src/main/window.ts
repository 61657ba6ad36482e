import { join } from 'node:path';
import { BrowserWindow, nativeTheme } from 'electron';
import icon from '../../resources/icon.png?asset';
import { palette } from '@shared/render/palette';
import { loadRenderer } from './renderer-location';

const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 640,
    minHeight: 420,
    title: 'allocscope',
    // Hidden until the first paint, so the user never sees an empty white frame.
    show: false,
    // Matches the page background of each theme, for the frames before CSS applies.
    backgroundColor: palette(nativeTheme.shouldUseDarkColors ? 'dark' : 'light').ui.pageBackground,
    ...(process.platform === 'linux' ? { icon } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  });

  window.once('ready-to-show', () => window.show());
  loadRenderer(window).catch((error: unknown) => {
    console.error('[allocscope] could not load the page:', error);
  });
  return window;
}
