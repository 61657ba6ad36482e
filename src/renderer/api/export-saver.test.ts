import { describe, expect, it } from 'vitest';
import type { AllocscopeBridge, ExportFormat, SaveExportRequest } from '../../preload/index.d';
import { createExportSaver, remoteErrorText } from './export-saver';

function fakeBridge(reply: (request: SaveExportRequest) => Promise<unknown>) {
  const requests: SaveExportRequest[] = [];
  const listeners: ((format: ExportFormat) => void)[] = [];
  const bridge = {
    saveExport: (request: SaveExportRequest) => {
      requests.push(request);
      return reply(request);
    },
    onMenuExport: (listener: (format: ExportFormat) => void) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  } as unknown as AllocscopeBridge;
  return { bridge, requests, listeners };
}

describe('the Electron export saver', () => {
  it('sends only format, name and data, and reports the name main wrote', async () => {
    const { bridge, requests } = fakeBridge(() =>
      Promise.resolve({ saved: true, fileName: 'chosen.png' }),
    );
    const saver = createExportSaver(bridge);
    expect(saver.host).toBe('electron');
    const data = new Uint8Array([1, 2]);
    const file = { format: 'png' as const, fileName: 'run.png', data, extra: 'dropped' };
    await expect(saver.save(file)).resolves.toEqual({ status: 'saved', fileName: 'chosen.png' });
    expect(requests).toEqual([{ format: 'png', fileName: 'run.png', data }]);
  });

  it('tells a cancelled dialog from an error, and cleans Electron’s prefix off errors', async () => {
    const cancelled = createExportSaver(fakeBridge(() => Promise.resolve({ saved: false })).bridge);
    await expect(cancelled.save({ format: 'csv', fileName: 'a.csv', data: '' })).resolves.toEqual({
      status: 'cancelled',
    });
    const failing = createExportSaver(
      fakeBridge(() =>
        Promise.reject(
          new Error(
            "Error invoking remote method 'export:save': Error: could not write a.csv: the disk is full",
          ),
        ),
      ).bridge,
    );
    await expect(failing.save({ format: 'csv', fileName: 'a.csv', data: '' })).rejects.toThrow(
      /^could not write a\.csv: the disk is full$/,
    );
  });

  it('passes File › Export on', () => {
    const { bridge, listeners } = fakeBridge(() => Promise.resolve({ saved: false }));
    const got: ExportFormat[] = [];
    const unsubscribe = createExportSaver(bridge).onMenuExport((format) => void got.push(format));
    listeners[0]!('json');
    unsubscribe();
    expect(got).toEqual(['json']);
    expect(listeners).toEqual([]);
  });
});

describe('remoteErrorText', () => {
  it('keeps messages without the prefix as they are', () => {
    expect(remoteErrorText(new Error('plain'))).toBe('plain');
    expect(remoteErrorText('text')).toBe('text');
    expect(
      remoteErrorText(new Error("Error invoking remote method 'x': ZodError: bad input")),
    ).toBe('bad input');
  });
});
