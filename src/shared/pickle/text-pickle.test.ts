import { describe, expect, it } from 'vitest';
import { pythonPickle } from '../../../test/support/python';
import { CodeLoadingRefusedError } from './pickle-error';
import { describeProtocol0Or1 } from './text-pickle';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('describeProtocol0Or1', () => {
  it.each([
    ['collections.OrderedDict(a=1)', 0],
    ['collections.OrderedDict(a=1)', 1],
    ['complex(1, 2)', 0],
    ['set([1, 2])', 1],
  ])('names code loading in %s at protocol %i, as CPython writes it', (expression, protocol) => {
    const error = describeProtocol0Or1(pythonPickle(expression, protocol));
    expect(error).toBeInstanceOf(CodeLoadingRefusedError);
    expect(error?.message).toMatch(/asks to load Python code \(opcode (GLOBAL|INST) at byte \d+\)/);
  });

  it.each([
    ["{'segments': [], 'device_traces': [[]]}", 0],
    ["{'segments': [{'size': 1.5, 'name': 'x'}]}", 1],
  ])('names a plain protocol %s pickle as a protocol 0/1 pickle', (expression, protocol) => {
    const error = describeProtocol0Or1(pythonPickle(expression, protocol));
    expect(error).not.toBeInstanceOf(CodeLoadingRefusedError);
    expect(error?.message).toMatch(/a pickle of protocol 0 or 1/);
  });

  it('does not mistake text, JSON or random bytes for a pickle', () => {
    for (const head of [
      text('hello world'),
      text('{"segments": []}'),
      text('name,size\nx,1\n'),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251),
    ]) {
      expect(describeProtocol0Or1(head)).toBeNull();
    }
  });
});
