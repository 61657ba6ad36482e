// Golden tests of everything `allocscope` prints or draws: every text output of the CLI (summary,
// summary --json, report, report --json, segments, --help, the error lines) and every SVG that
// `render` makes (the timeline and the segments view, light and dark), on small snapshots
// generated here (test/golden/make_golden_snapshots.py, deterministic). One stored file per
// output in test/golden/__golden__/, compared exactly, like speedscope's checkProfileSnapshot:
// a change of output shows up in review as a diff of that file. After a deliberate change:
//
//   npx vitest run test/golden -u        (then read the diff of test/golden/__golden__/)
//
// report, segments and render outputs are made in-process, with the functions src/cli/main.ts
// calls (fast); those marked `cli: true` are also made by the built command (out/cli/allocscope.js,
// which the unit tests' global setup builds) and must equal the same stored file, so main.ts's own
// path is covered for every command. `summary` is only run as the built command: its code is a
// private function of main.ts, which runs the command when imported, and a copy of it here would
// drift from the real one.
//
// Masked (not deterministic): the temporary folders holding the inputs and the rendered SVGs
// (<inputs>, <out>), the figures of --timings (<n>), and a version number, should one ever appear
// in the report's `generator` field (<version>). Nothing else is masked.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCliOptions, USAGE } from '../../src/cli/cli-options';
import { runRender } from '../../src/cli/run-render';
import { runReport } from '../../src/cli/run-report';
import { runSteps } from '../../src/cli/run-steps';
import { runDiff } from '../../src/cli/run-diff';
import { runTop } from '../../src/cli/run-top';
import { runSegments } from '../../src/cli/run-segments';
import { runCli } from '../support/cli';

const GENERATOR = resolve(import.meta.dirname, 'make_golden_snapshots.py');
const GOLDEN = (name: string): string => resolve(import.meta.dirname, '__golden__', name);

const INPUTS = mkdtempSync(join(tmpdir(), 'allocscope-golden-in-'));
const OUT = mkdtempSync(join(tmpdir(), 'allocscope-golden-out-'));
mkdirSync(join(OUT, 'cli'));
const CASES = ['training', 'oom', 'multi', 'expandable'] as const;
type Case = (typeof CASES)[number];

beforeAll(() => {
  execFileSync('python3', [GENERATOR, INPUTS], { stdio: ['ignore', 'ignore', 'inherit'] });
});
afterAll(() => {
  rmSync(INPUTS, { recursive: true, force: true });
  rmSync(OUT, { recursive: true, force: true });
});

const input = (name: string): string => join(INPUTS, `${name}.pickle`);

/** The masks listed at the top of this file, and only those. */
function mask(text: string): string {
  return text
    .replaceAll(INPUTS, '<inputs>')
    .replaceAll(OUT, '<out>')
    .replace(/("generator": "[^"]*?)\d+\.\d+\.\d+[\w.+-]*/g, '$1<version>');
}

/** Compares with the stored file (writes it with -u); outputs stay small enough to review. */
async function matchGolden(text: string, file: string): Promise<void> {
  expect(text.length, file).toBeLessThan(100_000);
  await expect(text).toMatchFileSnapshot(GOLDEN(file));
}

/** A command line as the goldens show it (temporary folders masked). */
function commandLine(args: readonly string[]): string {
  return mask(['$ allocscope', ...args].join(' '));
}

interface Golden {
  /** The stored file under __golden__/ (its extension says what it holds). */
  file: string;
  /** The command line, the input named by its case. */
  args: (file: string) => string[];
  /** Also run the built command, which must print (or draw) the same. */
  cli?: boolean;
}

/** `summary` runs as the built command only (see the top of this file). */
const isSummary = (golden: Golden): boolean => golden.args('FILE')[0] === 'summary';

/** Text outputs: stdout of summary, report and segments. */
function textGoldens(name: Case): Golden[] {
  return [
    { file: `${name}/summary.txt`, args: (f) => ['summary', f] },
    { file: `${name}/summary.json`, args: (f) => ['summary', f, '--json'] },
    { file: `${name}/report.txt`, args: (f) => ['report', f], cli: name === 'oom' },
    {
      file: `${name}/report.json`,
      args: (f) => ['report', f, '--json', '-'],
      cli: name === 'multi',
    },
    { file: `${name}/segments.txt`, args: (f) => ['segments', f], cli: name === 'multi' },
    { file: `${name}/segments-final.txt`, args: (f) => ['segments', f, '--moment', 'final'] },
    { file: `${name}/segments-peak.txt`, args: (f) => ['segments', f, '--moment', 'peak'] },
  ];
}

const TEXT_GOLDENS: Golden[] = [
  ...CASES.flatMap(textGoldens),
  {
    file: 'training/summary-bytes-top3.txt',
    args: (f) => ['summary', f, '--bytes', '--top', '3'],
  },
  {
    file: 'training/segments-bytes-event40.txt',
    args: (f) => ['segments', f, '--bytes', '--moment', '40'],
  },
  { file: 'training/segments-before-first.txt', args: (f) => ['segments', f, '--moment', '-1'] },
  { file: 'oom/segments-oom.txt', args: (f) => ['segments', f, '--moment', 'oom'], cli: true },
  {
    file: 'multi/summary-device1-top3.json',
    args: (f) => ['summary', f, '--json', '--device', '1', '--top', '3'],
  },
  { file: 'multi/summary-device0.txt', args: (f) => ['summary', f, '--device', '0'] },
  { file: 'multi/report-device0.txt', args: (f) => ['report', f, '--device', '0'] },
  {
    file: 'multi/segments-device1-peak.txt',
    args: (f) => ['segments', f, '--device', '1', '--moment', 'peak'],
  },
  { file: 'training/top.txt', args: (f) => ['top', f], cli: true },
  { file: 'training/steps.txt', args: (f) => ['steps', f], cli: true },
  { file: 'training/steps.json', args: (f) => ['steps', f, '--json'] },
  { file: 'training/diff-oom.txt', args: (f) => ['diff', f, input('oom')], cli: true },
  {
    file: 'training/diff-oom-category.json',
    args: (f) => ['diff', f, input('oom'), '--by', 'category', '--json'],
  },
  { file: 'training/top-stack.json', args: (f) => ['top', f, '--by', 'stack', '--json'] },
  {
    file: 'oom/top-category-oom.txt',
    args: (f) => ['top', f, '--by', 'category', '--moment', 'oom'],
  },
];

/** SVG outputs of `render --svg` (PNG is resvg's drawing of the same SVG, not compared here). */
function svgGoldens(name: Case): Golden[] {
  return [
    { file: `${name}/timeline.svg`, args: (f) => ['render', f], cli: name === 'training' },
    {
      file: `${name}/segments.svg`,
      args: (f) => ['render', f, '--view', 'segments'],
      cli: name === 'multi',
    },
  ];
}

const SVG_GOLDENS: Golden[] = [
  ...CASES.flatMap(svgGoldens),
  { file: 'oom/flame-oom.svg', args: (f) => ['render', f, '--view', 'flame', '--moment', 'oom'] },
  { file: 'training/categories.svg', args: (f) => ['render', f, '--view', 'categories'] },
  {
    file: 'oom/timeline-dark-oom-800x450.svg',
    args: (f) => [
      'render',
      f,
      '--theme',
      'dark',
      '--moment',
      'oom',
      '--width',
      '800',
      '--height',
      '450',
    ],
  },
  {
    file: 'oom/segments-dark.svg',
    args: (f) => ['render', f, '--view', 'segments', '--theme', 'dark'],
  },
  { file: 'multi/timeline-device0.svg', args: (f) => ['render', f, '--device', '0'] },
  {
    file: 'multi/segments-device0-final.svg',
    args: (f) => ['render', f, '--view', 'segments', '--device', '0', '--moment', 'final'],
  },
  {
    file: 'expandable/timeline-moment40-1000x500.svg',
    args: (f) => ['render', f, '--moment', '40', '--width', '1000', '--height', '500'],
  },
  {
    file: 'expandable/segments-event40.svg',
    args: (f) => ['render', f, '--view', 'segments', '--moment', '40'],
  },
];

/** The case a golden belongs to: the folder of its stored file. */
function caseOf(golden: Golden): Case {
  return golden.file.split('/')[0] as Case;
}

/** Where a render writes its SVG: a name of its own, the built command's in a folder of its own. */
function svgPath(golden: Golden, via: 'in-process' | 'cli'): string {
  const name = golden.file.replaceAll('/', '-');
  return via === 'cli' ? join(OUT, 'cli', name) : join(OUT, name);
}

/** Runs fn with process.stdout captured (runReport prints rather than returns). */
async function captureStdout(fn: () => Promise<void>): Promise<string> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return chunks.join('');
}

/** What the command prints on stdout for these arguments, in-process (as main.ts would). */
async function stdoutInProcess(args: readonly string[]): Promise<string> {
  const options = parseCliOptions(args);
  switch (options.command) {
    case 'help':
      return `${USAGE}\n`;
    case 'summary':
      throw new Error('summary runs as the built command only');
    case 'mcp':
      throw new Error('mcp is a server: test/unit/mcp-server.test.ts drives it');
    case 'serve':
      throw new Error('serve is a server: test/unit/serve-*.test.ts drive it');
    case 'report':
      return captureStdout(() =>
        runReport({ file: options.file, device: options.device, jsonPath: options.json }),
      );
    case 'segments':
      return `${await runSegments(options)}\n`;
    case 'render':
      return `${await runRender(options)}\n`;
    case 'top':
      return `${await runTop(options)}\n`;
    case 'steps':
      return `${await runSteps(options)}\n`;
    case 'diff':
      return `${await runDiff(options)}\n`;
    case 'ranks':
      throw new Error('ranks runs as the built command only (worker threads)');
    case 'html':
      throw new Error('html writes a page: test/unit/html-cli.test.ts runs it');
  }
}

/** The built command's stdout for these arguments; it must succeed and say nothing on stderr. */
function stdoutOfCli(args: readonly string[]): string {
  const run = runCli(args);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

describe('golden inputs', () => {
  it('are the generated snapshots they were (sizes and hashes)', async () => {
    const lines = CASES.map((name) => {
      const bytes = readFileSync(input(name));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return `${name}.pickle  ${bytes.length} bytes  sha256 ${sha256}`;
    });
    await matchGolden(`${lines.join('\n')}\n`, 'inputs.txt');
  });
});

describe('golden text outputs', () => {
  for (const golden of TEXT_GOLDENS) {
    const args = (): string[] => golden.args(input(caseOf(golden)));
    if (!isSummary(golden)) {
      it(`${golden.file}`, async () => {
        await matchGolden(mask(await stdoutInProcess(args())), golden.file);
      });
    }
    if (golden.cli || isSummary(golden)) {
      it(`${golden.file} (built command)`, async () => {
        await matchGolden(mask(stdoutOfCli(args())), golden.file);
      });
    }
  }

  it('help.txt', async () => {
    await matchGolden(await stdoutInProcess(['--help']), 'help.txt');
  });

  it('help.txt (built command)', async () => {
    await matchGolden(stdoutOfCli(['--help']), 'help.txt');
  });

  it('training/report-json-file.txt (report --json OUT.json: one line; the file is report.json)', async () => {
    const out = join(OUT, 'training-report.json');
    const stdout = stdoutOfCli(['report', input('training'), '--json', out]);
    await matchGolden(mask(stdout), 'training/report-json-file.txt');
    await matchGolden(mask(readFileSync(out, 'utf8')), 'training/report.json');
  });

  it('training/summary-timings.stderr.txt (--timings: the keys; its figures masked)', async () => {
    const run = runCli(['summary', input('training'), '--timings']);
    expect(run.status).toBe(0);
    await matchGolden(mask(run.stdout), 'training/summary.txt');
    // Timings, memory and CPU time differ from run to run: every figure is masked.
    // Numbers after a key, and in a list of them (each decoding thread's CPU).
    const stderr = run.stderr
      .replace(/":\d+/g, '":<n>')
      .replace(/":\[[\d,]*\]/g, (list) => list.replace(/\d+/g, '<n>'));
    await matchGolden(stderr, 'training/summary-timings.stderr.txt');
  });

  it('errors.txt (usage and input errors: exit status, stdout, stderr)', async () => {
    const truncated = join(INPUTS, 'truncated.pickle');
    writeFileSync(truncated, readFileSync(input('training')).subarray(0, 1000));
    const training = input('training');
    const commands: string[][] = [
      ['frobnicate', training],
      ['summary'],
      ['summary', training, '--top', 'many'],
      ['summary', training, '--device', '7'],
      ['summary', join(INPUTS, 'missing.pickle')],
      ['summary', truncated],
      ['report', truncated, '--json', '-'],
      ['render', training],
      ['render', training, '--svg', join(OUT, 'x.svg'), '--view', 'icicle'],
      ['render', training, '--svg', join(OUT, 'x.svg'), '--moment', 'oom'],
      ['segments', training, '--moment', 'oom'],
      ['segments', training, '--moment', '100000'],
    ];
    const blocks = commands.map((args) => {
      const run = runCli(args);
      return [
        commandLine(args),
        `exit ${run.status}`,
        `stdout: ${run.stdout === '' ? '(empty)' : `\n${run.stdout}`}`,
        `stderr:\n${run.stderr}`,
      ].join('\n');
    });
    await matchGolden(mask(blocks.join('\n')), 'errors.txt');
  });
});

describe('golden SVG charts (render --svg)', () => {
  for (const golden of SVG_GOLDENS) {
    const args = (via: 'in-process' | 'cli'): string[] => [
      ...golden.args(input(caseOf(golden))),
      '--svg',
      svgPath(golden, via),
    ];
    it(`${golden.file}`, async () => {
      await stdoutInProcess(args('in-process'));
      const svg = readFileSync(svgPath(golden, 'in-process'), 'utf8');
      await matchGolden(svg, golden.file);
    });
    if (golden.cli) {
      it(`${golden.file} (built command)`, async () => {
        // The line it prints names its own output file; otherwise it is the in-process one.
        const stdout = stdoutOfCli(args('cli')).replace(svgPath(golden, 'cli'), 'OUT.svg');
        const expected = await stdoutInProcess(args('in-process'));
        expect(stdout).toBe(expected.replace(svgPath(golden, 'in-process'), 'OUT.svg'));
        const svg = readFileSync(svgPath(golden, 'cli'), 'utf8');
        await matchGolden(svg, golden.file);
      });
    }
  }

  it('render-stdout.txt (the line render prints for each chart above)', async () => {
    const blocks: string[] = [];
    for (const golden of SVG_GOLDENS) {
      const args = [...golden.args(input(caseOf(golden))), '--svg', svgPath(golden, 'in-process')];
      blocks.push(`${commandLine(args)}\n${mask(await stdoutInProcess(args))}`);
    }
    await matchGolden(blocks.join(''), 'render-stdout.txt');
  });
});
