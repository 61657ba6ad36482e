import { describe, expect, it } from 'vitest';
import { TEST_FRAMES, TEST_STACKS } from '../../../test/support/builders/analyzed-device';
import { NO_STACK } from './model';
import { frameAt, stackFrameIds } from './stack-source';

const source = { frames: TEST_FRAMES, stacks: TEST_STACKS };

describe('stackFrameIds', () => {
  it('lists the frame ids of a stack, innermost first', () => {
    expect([...stackFrameIds(source, 0)]).toEqual([0, 1, 2, 3, 4]);
    expect([...stackFrameIds(source, 1)]).toEqual([0, 2]);
  });

  it('has none for no stack or an id outside the table', () => {
    for (const stackId of [NO_STACK, -2, 2, 99])
      expect(stackFrameIds(source, stackId)).toHaveLength(0);
  });
});

describe('frameAt', () => {
  it('reads one frame of the table', () => {
    expect(frameAt(TEST_FRAMES, 3)).toEqual({
      filename: '/home/me/train.py',
      line: 42,
      name: 'step',
    });
  });
});
