import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotPathsFromArgv } from './launch-arguments';

describe('snapshotPathsFromArgv', () => {
  it('skips the app path when started as `electron <app>`', () => {
    const argv = ['/usr/bin/electron', '.', 'snapshot.pickle'];
    expect(snapshotPathsFromArgv(argv, { isDefaultApp: true, cwd: '/work' })).toEqual([
      resolve('/work', 'snapshot.pickle'),
    ]);
  });

  it('keeps the first argument of a packaged app', () => {
    const argv = ['/opt/allocscope/allocscope', resolve('/data/run.pickle')];
    expect(snapshotPathsFromArgv(argv, { isDefaultApp: false, cwd: '/work' })).toEqual([
      resolve('/data/run.pickle'),
    ]);
  });

  it('ignores switches before and after the app path', () => {
    const argv = [
      'electron',
      '--inspect=0',
      '--remote-debugging-port=0',
      'out/main/index.js',
      '--no-sandbox',
      'a.pickle',
    ];
    expect(snapshotPathsFromArgv(argv, { isDefaultApp: true, cwd: '/w' })).toEqual(['/w/a.pickle']);
  });

  it('returns nothing when no file is named', () => {
    expect(snapshotPathsFromArgv(['electron', '.'], { isDefaultApp: true, cwd: '/w' })).toEqual([]);
  });
});
