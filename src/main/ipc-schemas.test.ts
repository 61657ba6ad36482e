import { describe, expect, it } from 'vitest';
import {
  cancelDecodeArgumentsSchema,
  decodeFailedSchema,
  decodeProgressSchema,
  menuCommandSchema,
  noArgumentsSchema,
  openDroppedFileArgumentsSchema,
  openRecentFileArgumentsSchema,
  saveExportArgumentsSchema,
  saveExportResultSchema,
} from './ipc-schemas';

const absolutePath = process.platform === 'win32' ? 'C:\\data\\run.pickle' : '/data/run.pickle';

describe('IPC argument schemas', () => {
  it('accept what the preload sends', () => {
    expect(noArgumentsSchema.parse([])).toEqual([]);
    expect(openRecentFileArgumentsSchema.parse([absolutePath])).toEqual([absolutePath]);
    expect(openDroppedFileArgumentsSchema.parse([absolutePath])).toEqual([absolutePath]);
    expect(cancelDecodeArgumentsSchema.parse([7])).toEqual([7]);
  });

  it('refuse extra arguments, wrong types and odd paths', () => {
    const refused = [
      () => noArgumentsSchema.parse(['x']),
      () => openRecentFileArgumentsSchema.parse([]),
      () => openRecentFileArgumentsSchema.parse([absolutePath, 'extra']),
      () => openRecentFileArgumentsSchema.parse([{ path: absolutePath }]),
      () => openRecentFileArgumentsSchema.parse(['']),
      () => openRecentFileArgumentsSchema.parse(['/data/a\0b']),
      () => openDroppedFileArgumentsSchema.parse(['relative/run.pickle']),
      () => cancelDecodeArgumentsSchema.parse(['7']),
      () => cancelDecodeArgumentsSchema.parse([0]),
      () => cancelDecodeArgumentsSchema.parse([1.5]),
      () => cancelDecodeArgumentsSchema.parse([Number.MAX_SAFE_INTEGER + 2]),
    ];
    for (const parse of refused) expect(parse).toThrow();
  });
});

describe('IPC event schemas', () => {
  it('check what main sends', () => {
    const progress = { jobId: 1, stage: 'reading', bytesRead: 10, totalBytes: null };
    expect(decodeProgressSchema.parse(progress)).toEqual(progress);
    expect(() => decodeProgressSchema.parse({ ...progress, stage: 'other' })).toThrow();
    expect(() => decodeProgressSchema.parse({ ...progress, extra: 1 })).toThrow();
    const failed = { jobId: 1, fileName: 'a.pickle', message: 'internal error: boom' };
    expect(decodeFailedSchema.parse(failed)).toEqual(failed);
    expect(decodeFailedSchema.parse({ ...failed, bugReport: 'stack' })).toEqual({
      ...failed,
      bugReport: 'stack',
    });
    expect(() => decodeFailedSchema.parse({ ...failed, bugReport: 7 })).toThrow();
    expect(() => decodeFailedSchema.parse({ ...failed, bugReport: '' })).toThrow();
    expect(() => decodeFailedSchema.parse({ ...failed, stack: 'x' })).toThrow();
    expect(menuCommandSchema.parse('close-tab')).toBe('close-tab');
    expect(() => menuCommandSchema.parse('quit')).toThrow();
  });
});

describe('saveExport schemas', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

  it('accept each format with its kind of data', () => {
    const requests = [
      { format: 'png', fileName: 'run.cuda0.timeline.png', data: png },
      { format: 'svg', fileName: 'run.cuda0.timeline.svg', data: '<svg/>' },
      { format: 'json', fileName: 'run.allocscope-report.json', data: '{}' },
      { format: 'csv', fileName: 'run.cuda0.largest-allocations.csv', data: 'rank\r\n' },
      { format: 'csv', fileName: 'é 名前 (1).csv', data: '' },
    ];
    for (const request of requests) {
      expect(saveExportArgumentsSchema.parse([request])).toEqual([request]);
    }
    // Node's Buffer is a Uint8Array too.
    const buffer = Buffer.from(png);
    const [parsed] = saveExportArgumentsSchema.parse([
      { format: 'png', fileName: 'a.png', data: buffer },
    ]);
    expect(parsed.data).toBe(buffer);
  });

  it('refuse other formats, folders, odd names, wrong data and extra fields', () => {
    const good = { format: 'json', fileName: 'run.json', data: '{}' };
    const refused: unknown[][] = [
      [],
      [good, good],
      [{ ...good, format: 'pdf' }],
      [{ ...good, format: 'JSON' }],
      [{ ...good, fileName: '' }],
      [{ ...good, fileName: 'x'.repeat(256) }],
      [{ ...good, fileName: '../run.json' }],
      [{ ...good, fileName: '/etc/passwd' }],
      [{ ...good, fileName: 'C:\\Users\\run.json' }],
      [{ ...good, fileName: 'a\0b.json' }],
      [{ ...good, fileName: 'line\nbreak.json' }],
      [{ ...good, fileName: '..' }],
      [{ ...good, fileName: 42 }],
      [{ ...good, data: png }],
      [{ ...good, data: 42 }],
      [{ ...good, path: '/tmp/run.json' }],
      [{ format: 'png', fileName: 'a.png', data: 'not bytes' }],
      [{ format: 'png', fileName: 'a.png', data: Uint8Array.from([1, 2, 3]) }],
      [{ format: 'png', fileName: 'a.png', data: [0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10] }],
    ];
    for (const args of refused) {
      expect(() => saveExportArgumentsSchema.parse(args), JSON.stringify(args)).toThrow();
    }
  });

  it('refuse data over 512 MiB without copying it', () => {
    const huge = new Uint8Array(new ArrayBuffer(8), 0, 8);
    huge.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    Object.defineProperty(huge, 'byteLength', { value: 512 * 1024 * 1024 + 1 });
    expect(() =>
      saveExportArgumentsSchema.parse([{ format: 'png', fileName: 'a.png', data: huge }]),
    ).toThrow();
  });

  it('check the reply: a file name, or cancelled', () => {
    expect(saveExportResultSchema.parse({ saved: true, fileName: 'a.png' })).toEqual({
      saved: true,
      fileName: 'a.png',
    });
    expect(saveExportResultSchema.parse({ saved: false })).toEqual({ saved: false });
    expect(() => saveExportResultSchema.parse({ saved: true })).toThrow();
    expect(() => saveExportResultSchema.parse({ saved: false, path: '/x' })).toThrow();
  });
});
