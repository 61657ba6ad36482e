import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { MenuCommand } from '../preload/index.d';
import { applicationMenuTemplate, type MenuActions } from './menu-template';

function recordingActions() {
  const calls: string[] = [];
  const actions: MenuActions = {
    openSnapshot: () => void calls.push('open'),
    openFolder: () => void calls.push('open folder'),
    openRecentFile: (path) => void calls.push(`recent ${path}`),
    clearRecentFiles: () => void calls.push('clear'),
    openDemoSnapshot: () => void calls.push('demo'),
    sendToPage: (command: MenuCommand) => void calls.push(`page ${command}`),
    exportFromPage: (format) => void calls.push(`export ${format}`),
    showAbout: () => void calls.push('about'),
  };
  return { actions, calls };
}

function find(items: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions {
  for (const item of items) {
    if (item.label === label) return item;
    if (Array.isArray(item.submenu)) {
      try {
        return find(item.submenu, label);
      } catch {
        // not in this submenu
      }
    }
  }
  throw new Error(`no menu item ${label}`);
}

function click(item: MenuItemConstructorOptions): void {
  (item.click as () => void)();
}

describe('applicationMenuTemplate', () => {
  it('lists recent files most recent first, with Clear Recent', () => {
    const { actions, calls } = recordingActions();
    const template = applicationMenuTemplate(
      actions,
      { isDevServer: false, recentPaths: ['/b/R&D.pickle', '/a/run.pickle'] },
      'linux',
    );
    const recent = find(template, 'Open Recent').submenu as MenuItemConstructorOptions[];
    expect(recent.map((item) => item.label ?? item.type)).toEqual([
      '/b/R&&D.pickle',
      '/a/run.pickle',
      'separator',
      'Clear Recent',
    ]);
    click(recent[0]!);
    click(recent[3]!);
    expect(calls).toEqual(['recent /b/R&D.pickle', 'clear']);
  });

  it('opens a folder of ranks from File, with its own accelerator', () => {
    const { actions, calls } = recordingActions();
    const template = applicationMenuTemplate(actions, { isDevServer: false, recentPaths: [] });
    const item = find(template, 'Open Folder of Ranks…');
    expect(item.accelerator).toBe('CmdOrCtrl+Shift+O');
    click(item);
    expect(calls).toEqual(['open folder']);
  });

  it('says so when there are no recent files', () => {
    const { actions } = recordingActions();
    const template = applicationMenuTemplate(actions, { isDevServer: false, recentPaths: [] });
    const recent = find(template, 'Open Recent').submenu as MenuItemConstructorOptions[];
    expect(recent).toEqual([{ label: 'No recent files', enabled: false }]);
  });

  it('shows the tab shortcuts without taking the keys from the page', () => {
    const { actions, calls } = recordingActions();
    const template = applicationMenuTemplate(actions, { isDevServer: false, recentPaths: [] });
    for (const [label, accelerator] of [
      ['Close Tab', 'CmdOrCtrl+W'],
      ['Next Tab', 'Ctrl+Tab'],
      ['Previous Tab', 'Ctrl+Shift+Tab'],
    ] as const) {
      const item = find(template, label);
      expect(item.accelerator).toBe(accelerator);
      expect(item.registerAccelerator).toBe(false);
      click(item);
    }
    click(find(template, 'Open…'));
    click(find(template, 'Open the Demo Snapshot'));
    expect(calls).toEqual(['page close-tab', 'page next-tab', 'page previous-tab', 'open', 'demo']);
    expect(find(template, 'Open…').accelerator).toBe('CmdOrCtrl+O');
  });

  it('offers File › Export for the page to make PNG, SVG, JSON and CSV', () => {
    const { actions, calls } = recordingActions();
    const template = applicationMenuTemplate(actions, { isDevServer: false, recentPaths: [] });
    const exportMenu = find(template, 'Export');
    expect(exportMenu.id).toBe('file-export');
    const items = exportMenu.submenu as MenuItemConstructorOptions[];
    expect(items.map((item) => item.id)).toEqual([
      'file-export-png',
      'file-export-svg',
      'file-export-json',
      'file-export-csv',
    ]);
    for (const item of items) click(item);
    expect(calls).toEqual(['export png', 'export svg', 'export json', 'export csv']);
  });
});
