// Issue 20, items 4 and 13, through the real CLI: the 10 GB gzip bomb is refused at once
// (under a second of CPU and 300 MB) with what it would cost and how to allow it; --max-memory
// works on every command that reads snapshots, from a file or a pipe, and lets a modest file
// through that the default refuses; a file is read to the size it had when opened.

import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openSnapshotFile } from '../../src/cli/read-snapshot-file';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { chunksOf } from '../support/analyzed';
import { CLI_PATH, runCli, type CliRun } from '../support/cli';
import { gzipOfRepeats, repeatedTrace } from '../support/gzip-bomb';
import { tinyJsonSnapshot, tinySnapshot } from '../support/hostile-files';

const dir = mkdtempSync(join(tmpdir(), 'allocscope-gzip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 2 ** 20;

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** 11 MB of gzip unpacking to 2.8 GiB of trace entries (the first bomb). */
const bomb3g = write('bomb-3g.pickle.gz', gzipOfRepeats(repeatedTrace(2000, 17_045, 1)));

/** The stderr lines, the timings line set apart. */
function stderrOf(run: CliRun): { lines: string[]; timings: Record<string, number> | null } {
  const all = run.stderr.split('\n').filter((line) => line !== '');
  const timing = all.find((line) => line.startsWith('allocscope-timings '));
  return {
    lines: all.filter((line) => line !== timing),
    timings: timing === undefined ? null : JSON.parse(timing.slice('allocscope-timings '.length)),
  };
}

describe('gzip bombs through the CLI', () => {
  it("refuses the issue's 39 MB bomb of 10 GB at once, with its cost and the way past", () => {
    // Its trailer wraps past 4 GiB twice: the ratio decides, the trailer gives the exact figure.
    const path = write('bomb-10g.pickle.gz', gzipOfRepeats(repeatedTrace(2000, 56_818, 1)));
    const run = runCli(['summary', path, '--timings']);
    const { lines, timings } = stderrOf(run);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines).toHaveLength(1);
    // The limit: 64 times the file, unless this machine has less memory than that.
    expect(lines[0]).toMatch(
      new RegExp(
        '^allocscope: bomb-10g\\.pickle\\.gz: the gzip data would unpack to about 9\\.3 GiB, 258 ' +
          'times its size \\(judging by the first \\d+\\.\\d MiB\\): decoding it could take 27\\.9 GiB ' +
          'of memory, over the limit of (6\\.9 GiB for a file of 37\\.0 MiB \\(snapshots compress ' +
          "up to about 40 times\\)|\\d+\\.\\d GiB \\(this machine's memory\\)); --max-memory 28G allows it$",
      ),
    );
    expect(timings!.cpu_ms).toBeLessThan(1000);
    expect(timings!.max_rss_bytes).toBeLessThan(300 * MiB);
  });

  it('takes --max-memory on every command that reads snapshots', () => {
    const other = write('other.pickle.gz', gzipSync(tinySnapshot()));
    const commands = [
      ['summary', bomb3g],
      ['report', bomb3g],
      ['render', bomb3g, '--png', join(dir, 'out.png')],
      ['segments', bomb3g],
      ['top', bomb3g],
      ['steps', bomb3g],
      ['diff', other, bomb3g],
      ['ranks', other, bomb3g],
    ];
    for (const command of commands) {
      const run = runCli([...command, '--max-memory', '96M']);
      // ranks leaves a file it cannot read out, and reports the others.
      expect(run.status, `${command[0]}: ${run.stderr}`).toBe(command[0] === 'ranks' ? 0 : 2);
      expect(run.stderr, command[0]).toMatch(
        /bomb-3g\.pickle\.gz: the gzip data .*over the limit of 96\.0 MiB \(set by --max-memory\); --max-memory 9G allows it/,
      );
    }
  });

  it('refuses a size it cannot read', () => {
    const run = runCli(['summary', bomb3g, '--max-memory', 'lots']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^allocscope: --max-memory takes a size such as 8G, 512M or 1\.5G, got 'lots'\n/,
    );
  });

  it('lets a modest file through with --max-memory that the default refuses', () => {
    // A snapshot, then 200 MiB of zeros after its STOP (unpacked and checked, not decoded):
    // 200 KB unpacking 1,000 times, more than a snapshot of its size could.
    const path = write(
      'padded.pickle.gz',
      gzipOfRepeats(
        { head: tinySnapshot(), body: new Uint8Array(MiB), repeats: 200, tail: new Uint8Array(0) },
        { crc: true },
      ),
    );
    const refused = runCli(['summary', path]);
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /for a file of 2\d\d\.\d KiB \(snapshots compress up to about 40 times\)/,
    );
    const allowed = runCli(['summary', path, '--json', '--max-memory', '1G']);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).devices).toHaveLength(1);
  });

  it('judges the JSON form by how JSON compresses, and says so', () => {
    // The JSON form of a snapshot, then 200 MiB of spaces (valid JSON): 1,000 times.
    const path = write(
      'padded.json.gz',
      gzipOfRepeats(
        {
          head: tinyJsonSnapshot(),
          body: new Uint8Array(MiB).fill(0x20),
          repeats: 200,
          tail: new Uint8Array(0),
        },
        { crc: true },
      ),
    );
    const refused = runCli(['summary', path]);
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /for a file of 2\d\d\.\d KiB \(snapshots in JSON form compress up to about 80 times\)/,
    );
  });

  it('cuts off a bomb from a pipe once it has unpacked past the limit', () => {
    const run = spawnSync(process.execPath, [CLI_PATH, 'summary', '-', '--max-memory', '64M'], {
      input: gzipOfRepeats(repeatedTrace(2000, 17_045, 1)),
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 1 << 20,
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^allocscope: standard input: the gzip data unpacks to more than \d+\.\d MiB, \d+ times the \d+\.\d KiB read so far: .*\(set by --max-memory\); --max-memory SIZE raises the limit\n$/,
    );
  });
});

describe('a file that grows while it is read', () => {
  it('is read to the size it had when opened', async () => {
    const pickle = tinySnapshot();
    const path = write('growing.pickle.gz', gzipSync(pickle));
    const opened = await openSnapshotFile(path);
    // Appended after the open, before a byte is read: a .gz with bytes after it would be refused.
    appendFileSync(path, new TextEncoder().encode('appended while it was read\n'.repeat(10_000)));
    const model = await decodeSnapshot(opened.chunks, {
      totalBytes: opened.size,
      gzipIsize: opened.gzipIsize,
    });
    expect(model).toEqual(await decodeSnapshot(chunksOf(pickle, MiB)));
  });

  it('reads exactly those bytes, in 1 MiB chunks', async () => {
    const path = write('growing.bin', new Uint8Array(3 * MiB + 5).fill(7));
    const opened = await openSnapshotFile(path);
    appendFileSync(path, new Uint8Array(MiB));
    const sizes: number[] = [];
    for await (const chunk of opened.chunks) sizes.push(chunk.length);
    expect(sizes).toEqual([MiB, MiB, MiB, 5]);
    expect(opened.gzipIsize).toBeNull();
  });
});
