import { dialog, type BrowserWindow } from 'electron';

/** Asks for snapshot files (several: the ranks of one job); resolves [] when the user cancels. */
export async function chooseSnapshotPaths(parent: BrowserWindow | null): Promise<string[]> {
  const options: Electron.OpenDialogOptions = {
    title: 'Open memory snapshots',
    properties: ['openFile', 'multiSelections'],
    filters: [
      { name: 'PyTorch memory snapshots', extensions: ['pickle', 'pkl', 'json', 'gz'] },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  return await showOpenDialog(parent, options);
}

/** Asks for a folder of ranks; resolves null when the user cancels. */
export async function chooseRanksFolder(parent: BrowserWindow | null): Promise<string | null> {
  const paths = await showOpenDialog(parent, {
    title: 'Open a folder of ranks (one snapshot per rank)',
    properties: ['openDirectory'],
  });
  return paths[0] ?? null;
}

async function showOpenDialog(
  parent: BrowserWindow | null,
  options: Electron.OpenDialogOptions,
): Promise<string[]> {
  const result = parent
    ? await dialog.showOpenDialog(parent, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? [] : result.filePaths;
}
