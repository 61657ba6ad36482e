import { describe, expect, it } from 'vitest';
import {
  menuCommandSchema,
  noArgumentsSchema,
  openDroppedFileArgumentsSchema,
  openRecentFileArgumentsSchema,
  recentFilesReplySchema,
  saveExportArgumentsSchema,
  saveExportResultSchema,
  settleSnapshotArgumentsSchema,
  snapshotHandoverSchema,
} from './ipc-schemas';

const absolutePath = process.platform === 'win32' ? 'C:\\data\\run.pickle' : '/data/run.pickle';
const url = `allocscope-file://snapshot/${'A'.repeat(40)}_-9`;

describe('IPC argument schemas', () => {
  it('accept what the preload sends', () => {
    expect(noArgumentsSchema.parse([])).toEqual([]);
    expect(openRecentFileArgumentsSchema.parse([absolutePath])).toEqual([absolutePath]);
    expect(openDroppedFileArgumentsSchema.parse([absolutePath])).toEqual([absolutePath]);
    expect(settleSnapshotArgumentsSchema.parse([url, 'decoded'])).toEqual([url, 'decoded']);
    expect(settleSnapshotArgumentsSchema.parse([url, 'failed'])).toEqual([url, 'failed']);
    expect(settleSnapshotArgumentsSchema.parse([url, 'cancelled'])).toEqual([url, 'cancelled']);
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
      () => settleSnapshotArgumentsSchema.parse([url]),
      () => settleSnapshotArgumentsSchema.parse([url, 'decoded', 'extra']),
      () => settleSnapshotArgumentsSchema.parse([url, 'done']),
      () => settleSnapshotArgumentsSchema.parse(['/data/run.pickle', 'decoded']),
      () => settleSnapshotArgumentsSchema.parse([`file://${absolutePath}`, 'decoded']),
      () => settleSnapshotArgumentsSchema.parse([`${url}/../x`, 'decoded']),
      () => settleSnapshotArgumentsSchema.parse([{ url }, 'decoded']),
    ];
    for (const parse of refused) expect(parse).toThrow();
  });
});

describe('IPC event schemas', () => {
  it('check what main sends', () => {
    const handover = { url, fileName: 'run.pickle', sizeBytes: 10, rankGroup: null };
    expect(snapshotHandoverSchema.parse(handover)).toEqual(handover);
    expect(() => snapshotHandoverSchema.parse({ ...handover, path: '/data/run.pickle' })).toThrow();
    expect(() => snapshotHandoverSchema.parse({ ...handover, fileName: '' })).toThrow();
    expect(() => snapshotHandoverSchema.parse({ ...handover, url: 'https://x/run' })).toThrow();
    expect(() =>
      snapshotHandoverSchema.parse({ ...handover, url: 'allocscope-file://snapshot/short' }),
    ).toThrow();
    const recent = [{ path: absolutePath, fileName: 'run.pickle' }];
    expect(recentFilesReplySchema.parse(recent)).toEqual(recent);
    expect(() => recentFilesReplySchema.parse([{ path: '', fileName: 'x' }])).toThrow();
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
