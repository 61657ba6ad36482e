import { describe, expect, it } from 'vitest';
import {
  cancelDecodeArgumentsSchema,
  decodeProgressSchema,
  menuCommandSchema,
  noArgumentsSchema,
  openDroppedFileArgumentsSchema,
  openRecentFileArgumentsSchema,
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
    expect(menuCommandSchema.parse('close-tab')).toBe('close-tab');
    expect(() => menuCommandSchema.parse('quit')).toThrow();
  });
});
