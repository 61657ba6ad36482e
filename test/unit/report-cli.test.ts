// `allocscope report`: the findings as an `allocscope.report/1` JSON document (to a file or to
// stdout) or as text; bad input exits 2 with one line naming the file. Tested through runReport
// (in process) and through the built command, as users run it.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportDocumentSchema } from '@shared/report/report-document';
import { describeInputError } from '../../src/cli/describe-input-error';
import { runReport } from '../../src/cli/run-report';
import { runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';

const oomSnapshot = realSnapshotPath('Constructor-Sun');
const noOomSnapshot = realSnapshotPath('a0kuma');
const dir = mkdtempSync(join(tmpdir(), 'allocscope-report-'));

/** Runs runReport with stdout captured. */
async function captureReport(options: Parameters<typeof runReport>[0]): Promise<string> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  try {
    await runReport(options);
  } finally {
    spy.mockRestore();
  }
  return chunks.join('');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runReport', () => {
  it('--json - prints exactly one valid document on stdout', async () => {
    const stdout = await captureReport({ file: oomSnapshot, device: null, jsonPath: '-' });
    const document = reportDocumentSchema.parse(JSON.parse(stdout));
    expect(document.devices.map((d) => d.device)).toEqual([0, 1, 2]);
    expect(document.devices[1]!.ooms).toHaveLength(1);
    expect(document.devices[1]!.ooms[0]!.event).toBe(421);
  });

  it('--json OUT writes a 2-space JSON file and says so in one line', async () => {
    const out = join(dir, 'report.json');
    const stdout = await captureReport({ file: oomSnapshot, device: 1, jsonPath: out });
    expect(stdout).toBe(
      `Constructor-Sun_code_location__memory_snapshot.pickle: allocscope.report/1 of device 1 -> ${out}\n`,
    );
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('{\n  "schema": "allocscope.report/1",\n')).toBe(true);
    const document = reportDocumentSchema.parse(JSON.parse(text));
    expect(document.devices.map((d) => d.device)).toEqual([1]);
    expect(document.summary.devices.map((d) => d.device)).toEqual([1]);
  });

  it('without --json prints the findings as text, each OOM with its verdict', async () => {
    const stdout = await captureReport({ file: oomSnapshot, device: null, jsonPath: null });
    expect(stdout).toMatch(/^cuda:1: 596 trace entries, 8 segments at the end, 1 OOM$/m);
    expect(stdout).toMatch(/^ {2}at the active peak \(after event \d+\):$/m);
    expect(stdout).toMatch(
      /^ {2}OOM at event 421: requested 4\.9 GiB \(4\.9 GiB rounded\), device free 91\.3 MiB$/m,
    );
    expect(stdout).toMatch(/^ {4}verdict \(out-of-memory\): Out of memory: live tensors hold /m);
    expect(stdout).toMatch(/^ {4}live allocations by stack, largest first:$/m);
    expect(stdout).not.toMatch(/expandable_segments:True/);
  });

  it('says "what if" at the peak of a snapshot without an OOM', async () => {
    const stdout = await captureReport({ file: noOomSnapshot, device: null, jsonPath: null });
    expect(stdout).toMatch(/^ {2}no OOM; What if: at the active peak \(event \d+\)/m);
  });

  it('rejects an unknown device and a missing file with a clear message', async () => {
    await expect(runReport({ file: oomSnapshot, device: 7, jsonPath: '-' })).rejects.toThrow(
      /device 7 is not in Constructor-Sun_code_location__memory_snapshot\.pickle \(devices: 0, 1, 2\)/,
    );
    const missing = runReport({ file: join(dir, 'nope.pickle'), device: null, jsonPath: '-' });
    await expect(missing.catch((error: unknown) => describeInputError(error))).resolves.toMatch(
      /no such file/i,
    );
  });
});

// Through the built command (test/setup/global-setup.ts builds it).
describe('allocscope report', () => {
  it('--json - prints one document that validates against the schema', () => {
    const run = runCli(['report', oomSnapshot, '--json', '-']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const document = reportDocumentSchema.parse(JSON.parse(run.stdout));
    expect(document.devices[1]!.ooms[0]!.verdict).toBe('out-of-memory');
  });

  it('--json OUT.json --device N writes the file', () => {
    const out = join(dir, 'cli-report.json');
    const run = runCli(['report', noOomSnapshot, '--json', out, '--device', '0']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/-> .*cli-report\.json\n$/);
    const document = reportDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(document.devices[0]!.whatIf?.verdict).toBe('what-if');
  });

  it('prints text by default', () => {
    const run = runCli(['report', oomSnapshot, '--device', '1']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/verdict \(out-of-memory\)/);
  });

  it.each([
    ['a missing file', () => join(dir, 'missing.pickle'), /^allocscope: missing\.pickle: .+\n$/],
    [
      'random bytes',
      () => {
        const path = join(dir, 'garbage.pickle');
        writeFileSync(
          path,
          Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251),
        );
        return path;
      },
      /^allocscope: garbage\.pickle: not a memory snapshot.*\n$/,
    ],
    [
      'a truncated snapshot',
      () => {
        const path = join(dir, 'truncated.pickle');
        const bytes = readFileSync(noOomSnapshot);
        writeFileSync(path, bytes.subarray(0, bytes.length >> 1));
        return path;
      },
      /^allocscope: truncated\.pickle: .*truncated.*\n$/,
    ],
  ])('bad input (%s) exits 2 naming the file, nothing on stdout', (_name, makePath, message) => {
    const run = runCli(['report', makePath(), '--json', '-']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('an unknown device exits 2', () => {
    const run = runCli(['report', oomSnapshot, '--device', '7', '--json', '-']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/device 7 is not in .* \(devices: 0, 1, 2\)/);
  });

  it('an unwritable output exits 2 naming the path', () => {
    const run = runCli(['report', noOomSnapshot, '--json', join(dir, 'no-such-dir', 'out.json')]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/cannot write .*no-such-dir\/out\.json/);
  });
});
