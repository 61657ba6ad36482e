import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPathOpener, nodePathReader, planOpen } from './open-paths';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'allocscope-open-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, bytes: number): string {
  const path = join(root, name);
  writeFileSync(path, new Uint8Array(bytes));
  return path;
}

describe('planOpen', () => {
  it('opens a file as it is, with its size from the disk', async () => {
    const path = file('run.pickle', 123);
    expect(await planOpen([path], nodePathReader)).toEqual({
      targets: [{ path, options: { sizeBytes: 123 } }],
      emptyFolders: [],
    });
  });

  it("opens a folder's snapshots as ranks, in rank order, leaving other files and folders", async () => {
    mkdirSync(join(root, 'job'));
    mkdirSync(join(root, 'job', 'nested.pickle'));
    for (const [name, bytes] of [
      ['rank10.pickle', 10],
      ['rank2.pickle.gz', 2],
      ['rank0.pkl', 7],
      ['trace.json', 5],
      ['.rank1.pickle', 1],
      ['notes.txt', 3],
    ] as const)
      file(join('job', name), bytes);
    const plan = await planOpen([join(root, 'job')], nodePathReader);
    expect(plan.emptyFolders).toEqual([]);
    expect(
      plan.targets.map((target) => [target.path.slice(root.length + 5), target.options]),
    ).toEqual([
      ['rank0.pkl', { sizeBytes: 7, rankGroup: 'folder-1' }],
      ['rank2.pickle.gz', { sizeBytes: 2, rankGroup: 'folder-1' }],
      ['rank10.pickle', { sizeBytes: 10, rankGroup: 'folder-1' }],
    ]);
  });

  it('names a folder without snapshots, and hands over an unreadable path for the page to explain', async () => {
    mkdirSync(join(root, 'empty'));
    file(join('empty', 'readme.md'), 1);
    const missing = join(root, 'gone.pickle');
    const plan = await planOpen([join(root, 'empty'), missing], nodePathReader);
    expect(plan.emptyFolders).toEqual([join(root, 'empty')]);
    expect(plan.targets).toEqual([{ path: missing, options: { sizeBytes: null } }]);
  });

  it('a folder with one snapshot opens it as a plain file', async () => {
    mkdirSync(join(root, 'one'));
    const path = file(join('one', 'rank0.pickle'), 4);
    expect((await planOpen([join(root, 'one')], nodePathReader)).targets).toEqual([
      { path, options: { sizeBytes: 4, rankGroup: null } },
    ]);
  });
});

describe('createPathOpener', () => {
  it('hands over every planned file and tells of the empty folders', async () => {
    mkdirSync(join(root, 'job'));
    mkdirSync(join(root, 'empty'));
    const a = file(join('job', 'rank0.pickle'), 1);
    const b = file(join('job', 'rank1.pickle'), 2);
    const opened: [string, unknown][] = [];
    const told: string[] = [];
    const open = createPathOpener({
      handover: { open: (path, options) => void opened.push([path, options]) },
      reader: nodePathReader,
      notify: (message) => void told.push(message),
    });
    await open([join(root, 'job'), join(root, 'empty')]);
    expect(opened).toEqual([
      [a, { sizeBytes: 1, rankGroup: 'folder-1' }],
      [b, { sizeBytes: 2, rankGroup: 'folder-1' }],
    ]);
    // The same folder opened again is another job's view: another group (never its path).
    opened.length = 0;
    await open([join(root, 'job')]);
    expect(opened.map(([, options]) => options)).toEqual([
      { sizeBytes: 1, rankGroup: 'folder-2' },
      { sizeBytes: 2, rankGroup: 'folder-2' },
    ]);
    expect(told).toEqual([
      expect.stringContaining(`${join(root, 'empty')} holds no snapshot files`),
    ]);
  });
});
