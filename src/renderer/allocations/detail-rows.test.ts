import { describe, expect, it } from 'vitest';
import {
  hasDetails,
  NO_DETAILS,
  type AllocationDetails,
} from '@shared/analyzed/allocation-details';
import {
  detailRows,
  forwardFrameLines,
  metadataText,
  tooltipDetailRows,
  TOOLTIP_DETAIL_CHARS,
} from './detail-rows';

// Every field the newest snapshots record, as a snapshot with them would give them.
const DETAILS: AllocationDetails = {
  userMetadata: '{"step":3,"phase":"backward"}',
  userMetadataParsed: { step: 3, phase: 'backward' },
  userMetadataNotRead: null,
  compileContext: 'Torch-Compiled Region: 0/1',
  forwardFrames: [
    'File "/home/me/model.py", line 62, in forward\n    h = self.mlp(x)',
    'File "/env/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1775, in _call_impl',
    '/home/me/train.py:40 step',
  ],
  poolId: '1,3',
  internalMetadata: 'cudagraph_trees',
  category: 'activation',
  annotations: [
    { text: 'warmup', parsed: undefined, notRead: null, event: 12, stackId: 4 },
    { text: '[1,2]', parsed: [1, 2], notRead: null, event: 30, stackId: -1 },
  ],
};

const labelOf = (stackId: number): string =>
  stackId < 0 ? '(no stack recorded)' : `stack ${stackId}`;

describe('detailRows', () => {
  it('lists every field that is there, in order, JSON pretty-printed', () => {
    const rows = detailRows(DETAILS, labelOf);
    expect(rows.map((row) => [row.key, row.label, row.format])).toEqual([
      ['category', 'category', 'text'],
      ['pool', 'pool', 'text'],
      ['user-metadata', 'user metadata', 'json'],
      ['annotation-0', 'annotation', 'text'],
      ['annotation-1', 'annotation', 'json'],
      ['compile-context', 'compile context', 'code'],
      ['internal-metadata', 'internal metadata', 'code'],
    ]);
    const text = Object.fromEntries(rows.map((row) => [row.key, row.text]));
    expect(text['pool']).toBe('private pool (1,3)');
    expect(JSON.parse(text['user-metadata']!)).toEqual(DETAILS.userMetadataParsed);
    expect(text['user-metadata']).toContain('\n  "step": 3');
    expect(text['annotation-1']).toBe('[\n  1,\n  2\n]');
    expect(text['compile-context']).toBe(DETAILS.compileContext);
    expect(rows.find((row) => row.key === 'annotation-0')!.note).toBe('event 12 · stack 4');
    expect(rows.find((row) => row.key === 'annotation-1')!.note).toBe(
      'event 30 · (no stack recorded)',
    );
  });

  it('lists nothing for a file that records none of them', () => {
    expect(hasDetails(NO_DETAILS)).toBe(false);
    expect(detailRows(NO_DETAILS, labelOf)).toEqual([]);
  });

  it('keeps metadata text that is not a JSON object as written', () => {
    expect(metadataText('3', 3)).toEqual({ text: '3', json: false });
    expect(metadataText('not json', undefined)).toEqual({ text: 'not json', json: false });
  });
});

describe('forwardFrameLines', () => {
  it('marks the lines that name the user’s own files', () => {
    expect(forwardFrameLines(DETAILS)).toEqual([
      { text: DETAILS.forwardFrames[0], isUser: true },
      { text: DETAILS.forwardFrames[1], isUser: false },
      { text: DETAILS.forwardFrames[2], isUser: true },
    ]);
  });
});

describe('tooltipDetailRows', () => {
  it('puts each detail on one short line, the user frame of forward_frames second', () => {
    const rows = tooltipDetailRows(DETAILS, labelOf);
    expect(rows.map((row) => row.key)).toEqual(['category', 'forward', 'pool', 'user-metadata']);
    expect(rows[1]!.text).toBe('File "/home/me/model.py", line 62, in forward h = self.mlp(x)');
    expect(rows[3]!.text).toBe('{"step":3,"phase":"backward"}');
    for (const row of rows) {
      expect(row.text).not.toMatch(/\n/);
      expect(row.text.length).toBeLessThanOrEqual(TOOLTIP_DETAIL_CHARS);
    }
  });

  it('cuts long text with an ellipsis and lists nothing for an allocation without details', () => {
    const long = { ...NO_DETAILS, compileContext: 'x'.repeat(500) };
    const [row] = tooltipDetailRows(long, labelOf);
    expect(row!.text).toHaveLength(TOOLTIP_DETAIL_CHARS);
    expect(row!.text.endsWith('…')).toBe(true);
    expect(tooltipDetailRows(NO_DETAILS, labelOf)).toEqual([]);
  });
});

describe('user data nested or long beyond reason (issue 20)', () => {
  const deepText = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  const deepObjectText = `${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}`;
  const DEEP: AllocationDetails = {
    ...NO_DETAILS,
    userMetadata: deepText,
    userMetadataParsed: JSON.parse(deepText) as unknown,
    compileContext: 'x'.repeat(1_000_000),
    forwardFrames: ['y'.repeat(1_000_000)],
    annotations: [
      {
        text: deepObjectText,
        parsed: JSON.parse(deepObjectText) as unknown,
        notRead: null,
        event: 1,
        stackId: -1,
      },
    ],
  };

  it('lists them bounded in depth and length, where JSON.stringify throws', () => {
    expect(() => JSON.stringify(DEEP.userMetadataParsed)).toThrow(/call stack/);
    const rows = detailRows(DEEP, labelOf);
    const text = Object.fromEntries(rows.map((row) => [row.key, row.text]));
    expect(text['user-metadata']).toContain('[…]');
    expect(text['user-metadata']!.split('\n')).toHaveLength(17);
    expect(text['annotation-0']).toContain('"a": {…}');
    expect(text['compile-context']).toBe(`${'x'.repeat(10_000)}… (990,000 more characters)`);
    expect(forwardFrameLines(DEEP)[0]!.text).toBe(
      `${'y'.repeat(10_000)}… (990,000 more characters)`,
    );
    for (const row of tooltipDetailRows(DEEP, labelOf))
      expect(row.text.length).toBeLessThanOrEqual(TOOLTIP_DETAIL_CHARS);
  });
});

describe('metadata not read as JSON (analyzed/metadata-json.ts)', () => {
  it('is shown as written, bounded, the row saying why', () => {
    const deepText = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const NOT_READ: AllocationDetails = {
      ...NO_DETAILS,
      userMetadata: deepText,
      userMetadataNotRead: 'nested more than 4,096 levels deep',
      annotations: [
        {
          text: deepText,
          parsed: undefined,
          notRead: 'nested more than 4,096 levels deep',
          event: 7,
          stackId: -1,
        },
      ],
    };
    const rows = detailRows(NOT_READ, labelOf);
    const metadata = rows.find((row) => row.key === 'user-metadata')!;
    expect(metadata.format).toBe('text');
    expect(metadata.text).toBe(deepText);
    expect(metadata.note).toBe('not read as JSON: nested more than 4,096 levels deep');
    expect(rows.find((row) => row.key === 'annotation-0')!.note).toBe(
      'event 7 · (no stack recorded) · not read as JSON: nested more than 4,096 levels deep',
    );
    expect(detailRows(DETAILS, labelOf).find((row) => row.key === 'user-metadata')!.note).toBe(
      undefined,
    );
  });
});
