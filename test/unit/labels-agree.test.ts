// Issue 20: every function that words a frame, a path or a user's text reads it once. Each is
// given a name of 1 MB built to make the old code quadratic (test/support/hostile-labels.ts) and
// must answer in well under 100 ms of CPU; on the names real snapshots hold, and on many small
// names made of the characters the old regular expressions cared about, it must say what the old
// code said (test/support/old-label-code.ts).

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  atenOpOf,
  autogradNodeOf,
  isBinaryFile,
  isPythonFrame,
  MAX_LABEL_LENGTH,
  shortFrameLabel,
  stackLabelOf,
  stackLabelOfStack,
  frameFactsOf,
  SHORT_LABEL_CHARS,
} from '@shared/analysis/user-frame';
import { adoptFrameLabelTables, frameLabelTablesOf } from '@shared/analysis/label-tables';
import { qualifiedNativeName, shortNativeName } from '@shared/format/words';
import { isBackwardFrameText } from '@shared/holders/category-rules';
import { frameSearchText } from '@shared/holders/classify';
import { withoutTrailingNumber } from '@shared/steps/find-steps';
import { frameAt, stackFrameIds } from '@shared/snapshot/stack-source';
import { NO_DETAILS } from '@shared/analyzed/allocation-details';
import {
  firstLine,
  forwardFrameFile,
  forwardFrameLines,
} from '../../src/renderer/allocations/detail-rows';
import { readSnapshotFile } from '../../src/cli/read-snapshot-file';
import { labelBombNames } from '../support/hostile-labels';
import {
  OLD_BACKWARD_FRAME,
  OLD_BINARY_FILE,
  OLD_PYTHON_SOURCE,
  oldAtenOpOf,
  oldAutogradNodeOf,
  oldForwardFrameFile,
  oldOneLine,
  oldQualifiedNativeName,
  oldShortNativeName,
  oldWithoutTrailingNumber,
} from '../support/old-label-code';
import { realSnapshotPaths } from '../support/real-snapshots';

const MiB = 1 << 20;
/** CPU time one call on a 1 MB name may take (the old code took minutes). */
const MAX_CPU_MS = 100;

/** CPU milliseconds `run` takes (this test's process only: a busy machine does not count). */
function cpuMs(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const BOMBS = labelBombNames(MiB);
const BOMB_TEXTS = Object.entries(BOMBS);

describe('every label function reads a 1 MB name once', () => {
  const functions: [string, (text: string) => unknown][] = [
    ['qualifiedNativeName', qualifiedNativeName],
    ['shortNativeName', shortNativeName],
    ['autogradNodeOf', autogradNodeOf],
    ['atenOpOf', atenOpOf],
    ['isBinaryFile', isBinaryFile],
    ['isPythonFrame', isPythonFrame],
    ['isBackwardFrameText', (text) => isBackwardFrameText(frameSearchText('??', 0, text))],
    ['withoutTrailingNumber', withoutTrailingNumber],
    ['firstLine', (text) => firstLine(text, 80)],
    [
      'forwardFrameLines',
      (text) => forwardFrameLines({ ...NO_DETAILS, forwardFrames: [text, `${text}.py:1`] }),
    ],
    ['stackLabelOf (C++ frame)', (text) => stackLabelOf([{ filename: '??', line: 0, name: text }])],
    [
      'stackLabelOf (Python frame)',
      (text) => stackLabelOf([{ filename: `/home/${text}/model.py`, line: 1, name: text }]),
    ],
    ['shortFrameLabel', (text) => shortFrameLabel({ filename: '??', line: 0, name: text })],
  ];
  for (const [name, run] of functions) {
    it(`${name}: under ${MAX_CPU_MS} ms of CPU on each 1 MB bomb`, () => {
      for (const [kind, text] of BOMB_TEXTS) {
        expect(text.length).toBeGreaterThan(MiB - 64);
        const ms = cpuMs(() => run(text));
        expect(ms, `${name} on ${kind}`).toBeLessThan(MAX_CPU_MS);
      }
    });
  }

  it('a whole stack of bombs labels in bounded time, its label cut to MAX_LABEL_LENGTH', () => {
    const frames = BOMB_TEXTS.map(([, name]) => ({ filename: '??', line: 0, name }));
    let label: ReturnType<typeof stackLabelOf> = null;
    expect(cpuMs(() => (label = stackLabelOf(frames)))).toBeLessThan(MAX_CPU_MS * 4);
    expect(label!.text.length).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
  });

  it('one 1 MB frame in 5,000 stacks is worded once, not once per stack', () => {
    const shared = { filename: '??', line: 0, name: BOMBS.deepTemplate };
    const frames = {
      filename: ['??', ...Array.from({ length: 5000 }, () => '??')],
      line: [0, ...Array.from({ length: 5000 }, (_, i) => i + 1)],
      name: [shared.name, ...Array.from({ length: 5000 }, () => 'at::f(int)')],
    };
    const offsets = Uint32Array.from({ length: 5001 }, (_, i) => 2 * i);
    const frameIds = Uint32Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? i / 2 + 1 : 0));
    const source = { frames, stacks: { offsets, frameIds } };
    const facts = frameFactsOf(frames);
    const ms = cpuMs(() => {
      for (let stackId = 0; stackId < 5000; stackId++) {
        stackLabelOfStack(source, stackId);
        for (const frameId of stackFrameIds(source, stackId)) facts.shortLabel(frameId);
      }
    });
    expect(ms).toBeLessThan(MAX_CPU_MS * 4);
    expect(facts.shortLabel(0).length).toBeLessThanOrEqual(SHORT_LABEL_CHARS);
  });
});

/** A deterministic stream of small numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Texts of 1 to 12 pieces drawn from `pieces`. */
function randomTexts(pieces: readonly string[], count: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * 12);
    let text = '';
    for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)]!;
    return text;
  });
}

/** What C++ symbols, and the old expressions over them, are made of. */
const SYMBOL_PIECES = [
  '<',
  '>',
  '(',
  ')',
  ' ',
  '\t',
  'const',
  ' const',
  '&',
  '&&',
  '::',
  'a',
  'Backward',
  'AccumulateGrad',
  'operator',
  'operator<',
  'operator()',
  'operator->',
  ' [clone .isra.0]',
  ' [clone ',
  ']',
  '.localalias',
  '.constprop.3',
  '(anonymous namespace)',
  '{lambda()#1}',
  'torch::autograd::',
  'torch::autograd::Engine::',
  'generated::',
  'at::_ops::',
  '::call',
  '::apply',
  '_',
  '1',
  '\uE000',
];
const PATH_PIECES = [
  '/',
  '\\',
  'a',
  '.',
  '1',
  '12',
  'so',
  '.so',
  '.o',
  '.a',
  '.py',
  '.pyw',
  'x',
  'dll',
  '.pyd',
  '.dylib',
  ' ',
  'torch',
  '/torch/autograd/__init__.py:',
  '/torch/_tensor.py:',
  ' backward',
  ':',
];
const LINE_PIECES = ['File "', '"', ' ', '\n', 'a', '.py', '.py:', '1', ':', '/', 'x.py:2', 'in'];
const STEP_PIECES = ['step', '#', '_', ' ', '\t', '-', '1', '12', 'a'];

/** Each function and what the old code said in its place. */
const PAIRS: [string, (text: string) => unknown, (text: string) => unknown][] = [
  ['qualifiedNativeName', qualifiedNativeName, oldQualifiedNativeName],
  ['shortNativeName', shortNativeName, oldShortNativeName],
  ['autogradNodeOf', autogradNodeOf, oldAutogradNodeOf],
  ['atenOpOf', atenOpOf, oldAtenOpOf],
  ['isBinaryFile', isBinaryFile, (text) => OLD_BINARY_FILE.test(text)],
  [
    'isPythonFrame',
    isPythonFrame,
    (text) =>
      OLD_PYTHON_SOURCE.test(text) ||
      text.startsWith('<ipython-input-') ||
      text.startsWith('<stdin>'),
  ],
  ['isBackwardFrameText', isBackwardFrameText, (text) => OLD_BACKWARD_FRAME.test(text)],
  ['withoutTrailingNumber', withoutTrailingNumber, oldWithoutTrailingNumber],
  ['firstLine', (text) => firstLine(text, 20), (text) => oldOneLine(text, 20)],
  ['forwardFrameFile', forwardFrameFile, oldForwardFrameFile],
];

/** The new functions and the old ones say the same of every text (the first difference shown). */
function expectAgreement(texts: readonly string[]): void {
  const differences: string[] = [];
  for (const [name, now, before] of PAIRS) {
    const text = texts.find((candidate) => now(candidate) !== before(candidate));
    if (text !== undefined)
      differences.push(
        `${name}(${JSON.stringify(text)}): ${String(now(text))} ≠ ${String(before(text))}`,
      );
  }
  expect(differences).toEqual([]);
}

describe('the linear code says what the old code said', () => {
  it('on small texts made of the pieces the old expressions cared about', () => {
    expectAgreement(randomTexts(SYMBOL_PIECES, 10_000, 1));
    expectAgreement(randomTexts(PATH_PIECES, 5_000, 2));
    expectAgreement(randomTexts(LINE_PIECES, 5_000, 3));
    expectAgreement(randomTexts(STEP_PIECES, 5_000, 4));
  });

  it.each(realSnapshotPaths().map((path) => [basename(path), path]))(
    'on every frame of %s, and labels every stack alike with and without the table',
    async (_name, path) => {
      const { model } = await readSnapshotFile(path);
      const { frames, stacks } = model;
      expectAgreement([...new Set([...frames.name, ...frames.filename])]);
      for (let id = 0; id < frames.name.length; id++) {
        const frame = frameAt(frames, id);
        const text = frameSearchText(frame.filename, frame.line, frame.name);
        expect(isBackwardFrameText(text), text).toBe(OLD_BACKWARD_FRAME.test(text));
        expect(frameFactsOf(frames).shortLabel(id)).toBe(shortFrameLabel(frame));
      }
      const source = { frames, stacks };
      for (let stackId = 0; stackId + 1 < stacks.offsets.length; stackId++) {
        const stackFrames = Array.from(stackFrameIds(source, stackId), (id) => frameAt(frames, id));
        expect(stackLabelOfStack(source, stackId)).toEqual(stackLabelOf(stackFrames));
      }
      // Handed over as the decode worker hands them to the page: the same labels and lines.
      const tables = structuredClone(frameLabelTablesOf(source));
      const adopted = structuredClone(source);
      adoptFrameLabelTables(adopted, tables);
      for (let stackId = -1; stackId < stacks.offsets.length; stackId++)
        expect(stackLabelOfStack(adopted, stackId)).toEqual(stackLabelOfStack(source, stackId));
      for (let id = 0; id < frames.name.length; id++) {
        expect(frameFactsOf(adopted.frames).flags(id)).toBe(frameFactsOf(frames).flags(id));
        expect(frameFactsOf(adopted.frames).shortLabel(id)).toBe(
          frameFactsOf(frames).shortLabel(id),
        );
      }
    },
  );
});
