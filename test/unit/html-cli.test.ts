// `allocscope html` as users run it (the built command): bad input exits 2 with one line naming
// the file and writes nothing (not even a partial page); --device/--moment/--view are checked
// against the file and written into the page resolved as the other commands resolve them.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedHeaderSchema } from '@shared/report/html-embedding';
import { summaryDocumentSchema } from '@shared/report/summary-report';
import { runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';

const folder = mkdtempSync(join(tmpdir(), 'allocscope-html-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const MULTI_GPU = realSnapshotPath('Constructor-Sun');
const NOT_A_SNAPSHOT = join(folder, 'notes.pickle');
writeFileSync(NOT_A_SNAPSHOT, 'these are my notes, not a pickle\n');

function headerOf(page: string) {
  const json = /<script type="application\/json" id="allocscope-snapshot">([^<]*)<\/script>/.exec(
    page,
  )![1]!;
  return embeddedHeaderSchema.parse(JSON.parse(json));
}

describe('allocscope html: bad input', () => {
  it.each([
    ['a missing file', [join(folder, 'missing.pickle')], /^allocscope: missing\.pickle: /],
    ['not a snapshot', [NOT_A_SNAPSHOT], /^allocscope: notes\.pickle: /],
    ['a device it does not have', [MULTI_GPU, '--device', '7'], /device 7 is not in/],
    ['a moment past its trace', [MULTI_GPU, '--device', '0', '--moment', '99999'], /past the end/],
    ['an OOM where there is none', [MULTI_GPU, '--device', '0', '--moment', 'oom'], /no OOM/],
    ['an unknown view', [MULTI_GPU, '--view', 'pie'], /--view/],
    ['standard input', ['-'], /save it first/],
  ])('%s: exit 2, one line, no page', (_what, args, message) => {
    const output = join(folder, 'page.html');
    const run = runCli(['html', ...args, '-o', output]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.split('\n')[0]).toMatch(/^allocscope: /);
    // Nothing written: no page, no partial file beside it.
    expect(readdirSync(folder).filter((name) => name.includes('page'))).toEqual([]);
  });

  it('-o naming the snapshot itself: exit 2, the snapshot untouched', () => {
    const copy = join(folder, 'copy.pickle');
    writeFileSync(copy, readFileSync(MULTI_GPU));
    const run = runCli(['html', copy, '-o', copy]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/is the snapshot itself/);
    expect(readFileSync(copy).equals(readFileSync(MULTI_GPU))).toBe(true);
    rmSync(copy);
  });

  it('without -o, or with -o into a missing folder: exit 2', () => {
    const missingO = runCli(['html', MULTI_GPU]);
    expect(missingO.status).toBe(2);
    expect(missingO.stderr).toMatch(/html needs -o OUT\.html/);
    const nowhere = join(folder, 'no-such-folder', 'page.html');
    const missingFolder = runCli(['html', MULTI_GPU, '-o', nowhere]);
    expect(missingFolder.status).toBe(2);
    expect(missingFolder.stderr).toMatch(/the folder .*no-such-folder does not exist/);
  });
});

describe('allocscope html: the finding the page opens on', () => {
  it('writes the page, with --moment peak resolved to the device active peak event', () => {
    const output = join(folder, 'multi.html');
    const run = runCli(['html', MULTI_GPU, '-o', output, '--device=0', '--moment', 'peak']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Constructor-Sun\S*\.pickle: .*multi\.html \(/);
    const summary = summaryDocumentSchema.parse(
      JSON.parse(runCli(['summary', MULTI_GPU, '--json', '--device', '0']).stdout),
    );
    const header = headerOf(readFileSync(output, 'utf8'));
    expect(header.opening).toEqual({
      device: 0,
      moment: summary.devices[0]!.active_bytes.peak_event_index,
      view: null,
    });
    expect(header.fileBytes).toBe(readFileSync(MULTI_GPU).length);
  });

  it('--moment oom without --device: the default device (the one with the OOM), its OOM event', () => {
    const output = join(folder, 'oom.html');
    const run = runCli(['html', MULTI_GPU, '-o', output, '--moment', 'oom', '--view', 'oom']);
    expect(run.status, run.stderr).toBe(0);
    const summary = summaryDocumentSchema.parse(
      JSON.parse(runCli(['summary', MULTI_GPU, '--json', '--device', '1']).stdout),
    );
    expect(headerOf(readFileSync(output, 'utf8')).opening).toEqual({
      device: 1,
      moment: summary.devices[0]!.oom[0]!.event_index,
      view: 'oom',
    });
  });

  it('with no choice the page opens on its defaults', () => {
    const output = join(folder, 'plain.html');
    expect(runCli(['html', MULTI_GPU, '-o', output]).status).toBe(0);
    expect(headerOf(readFileSync(output, 'utf8')).opening).toBeNull();
  });
});
