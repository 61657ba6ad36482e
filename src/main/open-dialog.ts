import { dialog, type BrowserWindow } from 'electron';

/** Asks for one snapshot file; resolves null when the user cancels. */
export async function chooseSnapshotPath(parent: BrowserWindow | null): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Open memory snapshot',
    properties: ['openFile'],
    filters: [
      { name: 'PyTorch memory snapshots', extensions: ['pickle', 'pkl', 'json', 'gz'] },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  const result = parent
    ? await dialog.showOpenDialog(parent, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
