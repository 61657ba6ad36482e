import { describe, expect, it } from 'vitest';
import { jsonInputKind } from './profiler-trace-sniff';

const kind = (text: string) => jsonInputKind(new TextEncoder().encode(text));

describe('jsonInputKind', () => {
  it.each([
    ['{"schemaVersion": 1, "deviceProperties": [], "traceEvents": []}', 'profiler-trace'],
    ['{"foo": {"segments": 1}, "traceEvents": [', 'profiler-trace'],
    ['{"segments": [], "device_traces": []}', 'snapshot'],
    ['[{"address": 1, "blocks": []}]', 'snapshot'],
    // A container bomb is the snapshot reader's to refuse, in its words.
    ['[[],[],[],[]', 'snapshot'],
    ['[[[1]]]', 'snapshot'],
    ['[["a"]]', 'snapshot'],
    ['[[1795898208834225, 1795898208834322], [[0, 0, 0', 'memory-timeline'],
    ['[[-1, 1, 32768, 0], [-1, 1, 512, 0]]', 'memory-timeline'],
    ['{"traceEvents" oops', 'profiler-trace'],
    ['{"x": oops', 'snapshot'],
    ['', 'snapshot'],
  ])('%s: %s', (text, expected) => {
    expect(kind(text)).toBe(expected);
  });
});
