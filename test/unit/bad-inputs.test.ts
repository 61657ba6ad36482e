// Hand-made bad inputs: each gives exit code 2, one clear line on stderr naming the file and the
// problem, and nothing on stdout; never a crash, a stack trace or a hang.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { pythonPickle, runPython } from '../support/python';
import { realSnapshotPath } from '../support/real-snapshots';

const dir = mkdtempSync(join(tmpdir(), 'allocscope-bad-'));
const real = readFileSync(realSnapshotPath('a0kuma'));

function file(name: string, bytes: Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const zipBytes = runPython(
  "import io, sys, zipfile\nb = io.BytesIO()\nz = zipfile.ZipFile(b, 'w'); z.writestr('data.pkl', b'x'); z.close()\nsys.stdout.buffer.write(b.getvalue())",
);

const cases: [string, string, RegExp][] = [
  ['empty', file('empty.pickle', ''), /the file is empty/],
  ['truncated in the header', file('trunc-2.pickle', real.subarray(0, 2)), /truncated/],
  ['truncated mid-way', file('trunc-half.pickle', real.subarray(0, real.length >> 1)), /truncated/],
  [
    'truncated before STOP',
    file('trunc-end.pickle', real.subarray(0, real.length - 1)),
    /truncated/,
  ],
  [
    'random bytes',
    file(
      'random.pickle',
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251),
    ),
    /not a memory snapshot/,
  ],
  [
    'a pickle of a class',
    file('class.pickle', pythonPickle('collections.OrderedDict(a=1)')),
    /asks to load Python code \(opcode [A-Z_]+ at byte \d+\)/,
  ],
  [
    'a pickle that calls os.system',
    file(
      'exploit.pickle',
      runPython(
        "import os, pickle, sys\nclass E:\n    def __reduce__(self): return (os.system, ('true',))\nsys.stdout.buffer.write(pickle.dumps(E()))",
      ),
    ),
    /asks to load Python code/,
  ],
  [
    'JSON that is cut short',
    file('snapshot.json', '{"segments": [{"device": 0'),
    /not valid JSON: .* \(at byte 26\)/,
  ],
  ['a zip archive', file('model.pt', zipBytes), /zip archive/],
  [
    'HTML without a snapshot',
    file('page.html', '<!doctype html><html><body>hi</body></html>'),
    /HTML page without an embedded snapshot/,
  ],
  [
    'corrupt gzip',
    file('bad.pickle.gz', Buffer.concat([gzipSync(real).subarray(0, 40), Buffer.alloc(100, 7)])),
    /gzip data is corrupt or truncated/,
  ],
  [
    'gzip of JSON that is no snapshot',
    file('json.gz', gzipSync('[1, 2, 3]')),
    /segments\[0\]: expected a dict, found 1/,
  ],
  [
    'a pickle of an int',
    file('int.pickle', pythonPickle('42')),
    /the pickle holds a number, expected a dict/,
  ],
  [
    'a dict that is not a snapshot',
    file('dict.pickle', pythonPickle("{'weights': [1, 2]}")),
    /neither 'segments' nor 'device_traces'/,
  ],
  [
    'segments of the wrong shape',
    file(
      'shape.pickle',
      pythonPickle("{'segments': [{'device': 0, 'address': 'x'}], 'device_traces': []}"),
    ),
    /segments\[0\]\.address/,
  ],
  [
    'a trace entry without addr',
    file(
      'noaddr.pickle',
      pythonPickle("{'segments': [], 'device_traces': [[{'action': 'alloc', 'size': 4}]]}"),
    ),
    /a trace entry's 'addr': missing \('alloc' entries name an address\) \(at byte \d+\)/,
  ],
  [
    'a trace of non-entries',
    file('traces.pickle', pythonPickle("{'segments': [], 'device_traces': [[1, 2]]}")),
    /device_traces\[0\] holds values that are not trace entries/,
  ],
  ['a missing file', join(dir, 'does-not-exist.pickle'), /no such file/],
  ['a directory', dir, /is a directory/],
];

describe('allocscope summary on bad input', () => {
  it.each(cases)('%s: exit 2, one line naming the file, empty stdout', (_label, path, message) => {
    const run = runCli(['summary', path, '--json']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`allocscope: ${path.split('/').pop()!}: `);
    expect(lines[0]).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
