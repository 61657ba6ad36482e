import { describe, expect, it } from 'vitest';
import { NO_STACK } from '../snapshot/model';
import { frameAt, stackFrameIds } from '../snapshot/stack-source';
import { TEST_FRAMES, TEST_STACKS } from '../../../test/support/builders/analyzed-device';
import {
  describeFrame,
  isCaptureFrame,
  isFrameworkFrame,
  shortFrameLabel,
  topUserFrameId,
  topUserFrameIndex,
} from './user-frame';

const source = { frames: TEST_FRAMES, stacks: TEST_STACKS };
const framesOf = (stackId: number) =>
  Array.from(stackFrameIds(source, stackId), (frameId) => frameAt(TEST_FRAMES, frameId));

describe('framework and capture frames', () => {
  it('tells the framework from user code', () => {
    expect(
      TEST_FRAMES.filename.map((file, i) => isFrameworkFrame(file, TEST_FRAMES.name[i]!)),
    ).toEqual([true, true, true, false, false]);
  });

  it('knows the stack capture and allocator frames', () => {
    expect(TEST_FRAMES.name.map(isCaptureFrame)).toEqual([true, true, false, false, false]);
  });
});

describe('topUserFrameIndex', () => {
  it('finds the top user frame, or the first frame past the capture machinery', () => {
    expect(topUserFrameIndex(framesOf(0))).toBe(3);
    expect(topUserFrameIndex(framesOf(1))).toBe(1);
    expect(topUserFrameIndex([])).toBe(-1);
  });

  it('falls back to the innermost frame when every frame is capture machinery', () => {
    expect(topUserFrameIndex(framesOf(0).slice(0, 2))).toBe(0);
  });
});

describe('topUserFrameId', () => {
  it('gives the frame id of the top user frame', () => {
    expect(topUserFrameId(source, 0)).toBe(3);
    expect(topUserFrameId(source, 1)).toBe(2);
  });

  it('is null without a stack', () => {
    expect(topUserFrameId(source, NO_STACK)).toBeNull();
    expect(topUserFrameId(source, 99)).toBeNull();
  });
});

describe('frame labels', () => {
  it('writes frames for people', () => {
    const frames = framesOf(0);
    expect(shortFrameLabel(frames[3]!)).toBe('me/train.py:42 step');
    expect(shortFrameLabel(frames[4]!)).toBe('me/train.py:? <module>');
    expect(shortFrameLabel(frames[0]!)).toBe('torch::unwind::unwind()');
  });

  it('describes frame ids as every label does (the CLI summary lists them)', () => {
    expect(describeFrame(source, 3)).toBe('me/train.py:42 step');
    expect(describeFrame(source, 4)).toBe('me/train.py:? <module>');
    expect(describeFrame(source, 0)).toBe('torch::unwind::unwind()');
    expect(describeFrame(source, null)).toBe('(no stack recorded)');
  });
});
