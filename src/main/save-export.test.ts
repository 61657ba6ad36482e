import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SaveExportRequest } from '../preload/index.d';
import { saveDialogOptions, saveExportFile, withFormatExtension } from './save-export';

const directory = join('/home', 'me', 'Downloads');
const request: SaveExportRequest = {
  format: 'csv',
  fileName: 'run.cuda0.largest-allocations.csv',
  data: 'rank\r\n',
};

function fakes(choice: { canceled: boolean; filePath?: string }, failWith?: NodeJS.ErrnoException) {
  const written: { path: string; data: string | Uint8Array }[] = [];
  const saved: string[] = [];
  const dialogs: Electron.SaveDialogOptions[] = [];
  return {
    written,
    saved,
    dialogs,
    dependencies: {
      showSaveDialog: (options: Electron.SaveDialogOptions) => {
        dialogs.push(options);
        return Promise.resolve(choice);
      },
      writeFile: (path: string, data: string | Uint8Array) => {
        if (failWith) return Promise.reject(failWith);
        written.push({ path, data });
        return Promise.resolve();
      },
      defaultDirectory: () => directory,
      onSaved: (path: string) => void saved.push(path),
    },
  };
}

describe('saveExportFile', () => {
  it('proposes the page’s name in the folder, filtered by type, and writes the bytes there', async () => {
    const target = join('/tmp', 'out', 'table.csv');
    const { written, saved, dialogs, dependencies } = fakes({ canceled: false, filePath: target });
    await expect(saveExportFile(request, dependencies)).resolves.toEqual({
      saved: true,
      fileName: 'table.csv',
    });
    expect(dialogs).toEqual([saveDialogOptions(request, directory)]);
    expect(dialogs[0]!.defaultPath).toBe(join(directory, request.fileName));
    expect(dialogs[0]!.filters![0]).toEqual({ name: 'CSV table', extensions: ['csv'] });
    expect(written).toEqual([{ path: target, data: 'rank\r\n' }]);
    expect(saved).toEqual([target]);
  });

  it('writes nothing when the dialog is cancelled', async () => {
    const { written, saved, dependencies } = fakes({ canceled: true, filePath: '' });
    await expect(saveExportFile(request, dependencies)).resolves.toEqual({ saved: false });
    expect(written).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('adds the extension to a name typed without one', async () => {
    const { written, dependencies } = fakes({ canceled: false, filePath: '/tmp/table' });
    await saveExportFile({ ...request, format: 'png', data: new Uint8Array(8) }, dependencies);
    expect(written[0]!.path).toBe('/tmp/table.png');
    expect(withFormatExtension('/tmp/report.txt', 'json')).toBe('/tmp/report.txt');
    expect(withFormatExtension('/tmp/report', 'json')).toBe('/tmp/report.json');
  });

  it('says why a file could not be written, naming it', async () => {
    const error = Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
    const { saved, dependencies } = fakes({ canceled: false, filePath: '/root/x.csv' }, error);
    await expect(saveExportFile(request, dependencies)).rejects.toThrow(
      'could not write x.csv: permission denied',
    );
    expect(saved).toEqual([]);
  });

  it('keeps the proposal inside the folder whatever the name says', () => {
    const options = saveDialogOptions({ ...request, fileName: '../../etc/passwd' }, directory);
    expect(options.defaultPath).toBe(join(directory, 'passwd'));
  });
});
