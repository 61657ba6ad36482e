// Issue 20, item 7: a snapshot's text never drives the terminal. Every text command of the CLI
// runs on a file with escape sequences (ESC [2J, OSC 0 title, OSC 52 clipboard, C1 CSI U+009B,
// BEL, DEL, CR, a bidi override, a line break) in its frame names and file names, user_metadata,
// annotation names and an unknown action's name, under a file NAME with them too; and the
// refusals, one of them quoting a file's text. Nothing a terminal obeys reaches stdout or stderr,
// nor the files the CLI writes (--folded, report --json OUT); the escapes are shown instead, and
// the JSON documents parse to the file's own text.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../support/cli';
import { TERMINAL_ESCAPES, terminalEscapesSnapshot, tinySnapshot } from '../support/hostile-files';

const dir = mkdtempSync(join(tmpdir(), 'allocscope-escapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILE = join(dir, 'terminal-escapes.pickle');
writeFileSync(FILE, terminalEscapesSnapshot());
/** The same snapshot under a name that would retitle the window and clear the screen. */
const EVIL_NAME = `evil${TERMINAL_ESCAPES.title}${TERMINAL_ESCAPES.c1}${TERMINAL_ESCAPES.cr}\n.pickle`;
const EVIL = join(dir, EVIL_NAME);
copyFileSync(FILE, EVIL);
/** A plain snapshot to compare with: its frames differ, so diff lists the file's. */
const PLAIN = join(dir, 'plain.pickle');
writeFileSync(PLAIN, tinySnapshot());
/** Refused: a block state the file spells with escape sequences, which the message quotes. */
const REFUSED = join(dir, `refused${TERMINAL_ESCAPES.clear}.pickle`);
writeFileSync(
  REFUSED,
  tinySnapshot((snapshot) => {
    const [segment] = snapshot.segments as { blocks: { state: string }[] }[];
    segment!.blocks[0]!.state = `x${TERMINAL_ESCAPES.title}${TERMINAL_ESCAPES.clipboard}`;
  }),
);
/** A job's ranks under such names, one of them refused. */
const RANKS = join(dir, 'ranks');
mkdirSync(RANKS);
copyFileSync(FILE, join(RANKS, `rank0${TERMINAL_ESCAPES.clear}.pickle`));
copyFileSync(FILE, join(RANKS, `rank1${TERMINAL_ESCAPES.title}.pickle`));
copyFileSync(REFUSED, join(RANKS, `rank2${TERMINAL_ESCAPES.c1}.pickle`));

/**
 * What a terminal obeys: C0 controls but line feed and tab, DEL, C1 (in UTF-8 the pairs C2 80 to
 * C2 9F: a check of single bytes 80–9F would flag every '−', E2 88 92), the line and paragraph
 * separators, the bidi embeddings, overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The bytes are UTF-8 and hold nothing a terminal obeys; the text, decoded. */
function inert(bytes: Buffer, what: string): string {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const found = OBEYED.exec(text);
  expect(
    found,
    `${what}: U+${found?.[0].codePointAt(0)?.toString(16)} at ${found?.index}`,
  ).toBeNull();
  // The same, byte by byte: no byte below 0x20 but LF and TAB, no DEL, no C1 in its UTF-8 form.
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    expect(byte < 0x20 && byte !== 0x0a && byte !== 0x09, `${what}: byte ${byte} at ${i}`).toBe(
      false,
    );
    expect(byte === 0x7f, `${what}: DEL at ${i}`).toBe(false);
    if (byte === 0xc2) expect(bytes[i + 1]! >= 0x80 && bytes[i + 1]! <= 0x9f).toBe(false);
  }
  return text;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[]): Run {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], { timeout: 60_000 });
  const what = `allocscope ${args.join(' ')}`;
  return {
    status: result.status,
    stdout: inert(result.stdout, `${what}: stdout`),
    stderr: inert(result.stderr, `${what}: stderr`),
  };
}

/** Every line of stderr is one of allocscope's own, never a line a file's text started. */
function expectOwnLines(stderr: string): void {
  for (const line of stderr.split('\n').filter((text) => text !== ''))
    expect(line).toMatch(/^(allocscope: |run 'allocscope --help')/);
}

/** A text report: the escapes are shown, and no line was started by a name's line break. */
function expectShown(stdout: string): void {
  expect(stdout).toMatch(/\\x1b\[2J|\\u009b31mRED/);
  expect(stdout.split('\n').some((line) => line.startsWith('two'))).toBe(false);
}

describe('a file with escape sequences, through every text command', () => {
  it.each([
    ['summary', [FILE]],
    ['top', [FILE]],
    ['top --by stack', [FILE, '--by', 'stack']],
    ['top --by file', [FILE, '--by', 'file']],
    ['top --by annotation', [FILE, '--by', 'annotation']],
    ['top --by metadata', [FILE, '--by', 'metadata']],
    ['top --grep', [FILE, '--grep', '\x1b|step']],
    ['segments', [FILE]],
    ['report', [FILE]],
    ['steps', [FILE]],
    ['steps --by stack', [FILE, '--by', 'stack']],
    ['diff', [FILE, PLAIN]],
    ['diff (the other way)', [PLAIN, EVIL]],
  ] as const)('%s: the escapes shown, none sent', (name, args) => {
    const result = run([name.split(' ')[0]!, ...args]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expectShown(result.stdout);
  });

  it('summary under a file name with escape sequences: the name shown on its line', () => {
    const result = run(['summary', EVIL]);
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(
      /^evil\\x1b\]0;pwned\\x07\\u009b31mRED\\u009b0mok\\rfake\\n\.pickle {2}/,
    );
  });

  it.each([
    ['summary', [FILE, '--json']],
    ['top', [FILE, '--json', '--by', 'annotation']],
    ['steps', [FILE, '--json']],
    ['diff', [FILE, PLAIN, '--json']],
    ['report', [FILE, '--json', '-']],
    ['ranks', [RANKS, '--json']],
  ] as const)('%s --json: valid JSON with the file’s own text', (command, args) => {
    const result = run([command, ...args]);
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.stringify(JSON.parse(result.stdout));
    // Parsed, the strings are the file's: escape sequences and all.
    if (command !== 'ranks') expect(document).toContain(TERMINAL_ESCAPES.c1);
    expect(result.stdout).toContain('\\u009b31mRED');
  });

  it('ranks: file names shown escaped, the refused rank named on one line of stderr', () => {
    const result = run(['ranks', RANKS]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('rank0\\x1b[2J\\x1b[H.pickle');
    expect(result.stdout).toContain('rank1\\x1b]0;pwned\\x07.pickle');
    expectOwnLines(result.stderr);
    expect(result.stderr).toMatch(
      /^allocscope: rank2\\u009b31mRED\\u009b0m\.pickle: .*'x\\x1b\]0;pwned\\x07\\x1b\]52;c;cm0gLXJmIH4K\\x07' is not a block state.* \(left out\)\n$/,
    );
  });

  it('top --folded and report --json OUT: the files written are inert too', () => {
    const folded = join(dir, `folded${TERMINAL_ESCAPES.clear}.txt`);
    const top = run(['top', FILE, '--folded', folded]);
    expect(top.status).toBe(0);
    const lines = inert(readFileSync(folded), 'folded').split('\n');
    // One line per stack (and the empty one after the last line feed), its weight at the end.
    expect(lines.at(-1)).toBe('');
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^train\\x1b\[2J.* \d+$/);

    const out = join(dir, `report${TERMINAL_ESCAPES.title}.json`);
    const report = run(['report', FILE, '--json', out]);
    expect(report.status).toBe(0);
    expect(report.stdout).toMatch(
      /^terminal-escapes\.pickle: allocscope\.report\/1 of device 0 -> .*report\\x1b\]0;pwned\\x07\.json\n$/,
    );
    const written = inert(readFileSync(out), 'report.json');
    expect(JSON.parse(written)).toEqual(JSON.parse(run(['report', FILE, '--json', '-']).stdout));
  });

  it('render: its message names the file and the output path on one line', () => {
    const svg = join(dir, `chart${TERMINAL_ESCAPES.clear}${TERMINAL_ESCAPES.newline}.svg`);
    const result = run(['render', EVIL, '--svg', svg]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stdout).toContain('chart\\x1b[2J\\x1b[Hone\\ntwo.svg (SVG 1600x900)');
  });
});

describe('refusals and usage errors quoting a file’s text or name: one inert line', () => {
  it.each([
    [
      'a refused file quoting its text',
      ['summary', REFUSED],
      /^allocscope: refused\\x1b\[2J\\x1b\[H\.pickle: .*'x\\x1b\]0;pwned\\x07\\x1b\]52;c;cm0gLXJmIH4K\\x07' is not a block state/,
    ],
    [
      'a missing file',
      ['summary', join(dir, `missing${TERMINAL_ESCAPES.cr}\n.pickle`)],
      /^allocscope: missingok\\rfake\\n\.pickle: /,
    ],
    [
      'a bad option value',
      ['summary', FILE, '--device', TERMINAL_ESCAPES.clear],
      /^allocscope: --device takes a device number, host or cpu, got '\\x1b\[2J\\x1b\[H'$/,
    ],
    [
      'a bad --moment in diff',
      ['diff', FILE, EVIL, '--moment', `x${TERMINAL_ESCAPES.bidi}`],
      /^allocscope: .*x\\u202egnp\.exe\\u202c/,
    ],
    [
      'a device not in a file with an evil name',
      ['top', EVIL, '--device', '7'],
      /^allocscope: .*evil\\x1b\]0;pwned\\x07.*\\n\.pickle/,
    ],
  ] as const)('%s', (_name, args, message) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expectOwnLines(result.stderr);
    expect(result.stderr.split('\n')[0]).toMatch(message);
  });
});
