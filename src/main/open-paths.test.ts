import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
      leftOut: [],
    });
  });

  it("opens a folder's snapshots as ranks, in rank order, leaving out other files and folders", async () => {
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
    // A folder named like a snapshot is named as left out; other names are not snapshots at all.
    expect(plan.leftOut).toEqual([
      { path: join(root, 'job', 'nested.pickle'), reason: 'is a directory, not a snapshot file' },
    ]);
  });

  it("leaves out a folder's links that loop or lead nowhere and its FIFOs, naming each", async () => {
    mkdirSync(join(root, 'job'));
    const a = file(join('job', 'rank0.pickle'), 1);
    const b = file(join('job', 'rank1.pickle'), 2);
    symlinkSync('loop.pickle', join(root, 'job', 'loop.pickle'));
    symlinkSync('nowhere.pickle', join(root, 'job', 'dangling.pickle'));
    execFileSync('mkfifo', [join(root, 'job', 'fifo.pickle')]);
    const plan = await planOpen([join(root, 'job')], nodePathReader);
    expect(plan.targets).toEqual([
      { path: a, options: { sizeBytes: 1, rankGroup: 'folder-1' } },
      { path: b, options: { sizeBytes: 2, rankGroup: 'folder-1' } },
    ]);
    expect(plan.leftOut).toEqual([
      { path: join(root, 'job', 'dangling.pickle'), reason: 'a symbolic link to a missing file' },
      {
        path: join(root, 'job', 'fifo.pickle'),
        reason: 'is a named pipe (FIFO), not a regular file',
      },
      { path: join(root, 'job', 'loop.pickle'), reason: 'too many symbolic links in the path' },
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
    const told: { title: string; detail: string }[] = [];
    const open = createPathOpener({
      handover: { open: (path, options) => void opened.push([path, options]) },
      reader: nodePathReader,
      notify: (notice) => void told.push(notice),
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
      {
        title: 'Nothing to open',
        detail: expect.stringContaining(`${join(root, 'empty')} holds no snapshot files`),
      },
    ]);
    // Entries left out of a folder: one notice naming each, the others opened.
    told.length = 0;
    opened.length = 0;
    symlinkSync('loop.pickle', join(root, 'job', 'loop.pickle'));
    await open([join(root, 'job')]);
    expect(opened.map(([path]) => path)).toEqual([a, b]);
    expect(told).toEqual([
      {
        title: 'Some files were left out',
        detail:
          'These are not snapshot files, and were left out:\nloop.pickle: too many symbolic links in the path',
      },
    ]);
  });
});
