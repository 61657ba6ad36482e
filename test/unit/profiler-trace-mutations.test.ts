// A profiler trace with one value replaced by anything JSON can hold, many times over: it opens
// (every figure finite, none negative) or is refused as unreadable input, never a bug (a
// TypeError, a RangeError, a hang).

import { describe, expect, it } from 'vitest';
import { buildAnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { isUnreadableInput } from '../../src/shared/errors/unreadable-input';
import { decodeBytes } from '../support/analyzed';
import {
  annotationSpan,
  memoryEvent,
  opSpan,
  pythonSpan,
  traceText,
} from '../support/profiler-trace';

const BASE = traceText([
  annotationSpan('ProfilerStep#1', 0, 100),
  pythonSpan('train.py(3): step', 0, 90),
  opSpan('aten::empty', 1, 10),
  memoryEvent(2, 0x40, 64, { total: 64 }),
  memoryEvent(3, 0x80, 32, { total: 96, device: [1, 0], reserved: 2_097_152 }),
  opSpan('aten::add', 20, 10, 7),
  memoryEvent(25, 0x40, -64, { total: 32, tid: 7 }),
  memoryEvent(30, 0x90, -16, { total: 16 }),
]);

const REPLACEMENTS = [
  '"x"',
  '-1',
  '0',
  '1.5',
  '1e308',
  '-1e308',
  '9007199254740993',
  'null',
  'true',
  '[]',
  '{}',
  '[1,2]',
  '{"a":1}',
  '""',
  '"[memory]"',
  '"X"',
];

/** The spans of BASE that are values (numbers, strings, literals), as [start, end). */
function valueSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const pattern = /"(?:[^"\\]|\\.)*"(?!\s*:)|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/g;
  for (const match of text.matchAll(pattern))
    spans.push([match.index, match.index + match[0].length]);
  return spans;
}

describe('profiler traces with one value replaced', () => {
  it('open with finite figures or are refused as unreadable, never a bug', async () => {
    const spans = valueSpans(BASE);
    expect(spans.length).toBeGreaterThan(100);
    let opened = 0;
    let refused = 0;
    for (const [start, end] of spans) {
      for (const replacement of REPLACEMENTS) {
        const text = BASE.slice(0, start) + replacement + BASE.slice(end);
        const bytes = new TextEncoder().encode(text);
        try {
          const model = await decodeBytes(bytes);
          const snapshot = buildAnalyzedSnapshot(model, {
            fileName: 'm.json',
            fileBytes: bytes.length,
          });
          for (const device of snapshot.devices) {
            for (const figure of [
              device.figures.active.peakBytes,
              device.figures.active.finalBytes,
              device.figures.reserved.peakBytes,
              ...device.activeBytes,
            ])
              expect(Number.isFinite(figure) && figure >= 0, `${figure} in ${text}`).toBe(true);
          }
          opened++;
        } catch (error) {
          if (!isUnreadableInput(error)) throw new Error(`a bug on ${text}: ${String(error)}`);
          refused++;
        }
      }
    }
    // Both happen: the replacements reach fields that are read and fields that are not.
    expect(opened).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(50);
  });
});
