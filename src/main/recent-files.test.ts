import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createRecentFilesStore,
  MAX_RECENT_FILES,
  parseRecentFiles,
  serializeRecentFiles,
  withRecentFile,
} from './recent-files';

describe('withRecentFile', () => {
  it('puts the path first and drops its older entry', () => {
    expect(withRecentFile(['/a', '/b', '/c'], '/b')).toEqual(['/b', '/a', '/c']);
    expect(withRecentFile([], '/a')).toEqual(['/a']);
  });

  it('keeps at most ten', () => {
    const paths = Array.from({ length: MAX_RECENT_FILES }, (_, i) => `/f${i}`);
    const next = withRecentFile(paths, '/new');
    expect(next).toHaveLength(MAX_RECENT_FILES);
    expect(next[0]).toBe('/new');
    expect(next).not.toContain(`/f${MAX_RECENT_FILES - 1}`);
  });
});

describe('parseRecentFiles', () => {
  it('reads what serializeRecentFiles writes', () => {
    expect(parseRecentFiles(serializeRecentFiles(['/a', '/b']))).toEqual(['/a', '/b']);
  });

  it('treats damaged or foreign content as an empty list', () => {
    expect(parseRecentFiles('')).toEqual([]);
    expect(parseRecentFiles('{"version":1,"paths":')).toEqual([]);
    expect(parseRecentFiles('{"version":2,"paths":["/a"]}')).toEqual([]);
    expect(parseRecentFiles('["/a"]')).toEqual([]);
    expect(parseRecentFiles('{"version":1,"paths":[1,2]}')).toEqual([]);
  });

  it('drops duplicates and cuts a hand-edited list to ten', () => {
    const paths = ['/a', '/a', ...Array.from({ length: 20 }, (_, i) => `/f${i}`)];
    const parsed = parseRecentFiles(JSON.stringify({ version: 1, paths }));
    expect(parsed).toHaveLength(MAX_RECENT_FILES);
    expect(parsed.slice(0, 2)).toEqual(['/a', '/f0']);
  });
});

describe('createRecentFilesStore', () => {
  let directory = '';
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'allocscope-recent-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('starts empty without a file, and persists what is added', async () => {
    const filePath = join(directory, 'nested', 'recent-files.json');
    const store = createRecentFilesStore(filePath);
    expect(await store.load()).toEqual([]);
    await store.add('/data/a.pickle');
    await store.add('/data/b.pickle');
    await store.add('/data/a.pickle');
    expect(store.list()).toEqual(['/data/a.pickle', '/data/b.pickle']);
    expect(store.includes('/data/b.pickle')).toBe(true);
    expect(store.includes('/etc/passwd')).toBe(false);

    const reopened = createRecentFilesStore(filePath);
    expect(await reopened.load()).toEqual(['/data/a.pickle', '/data/b.pickle']);
    await reopened.clear();
    expect(parseRecentFiles(await readFile(filePath, 'utf8'))).toEqual([]);
  });

  it('survives a damaged file', async () => {
    const filePath = join(directory, 'recent-files.json');
    await writeFile(filePath, 'not json');
    const store = createRecentFilesStore(filePath);
    expect(await store.load()).toEqual([]);
    expect(await store.add('/x.pickle')).toEqual(['/x.pickle']);
  });
});
