import { describe, expect, it } from 'vitest';
import {
  TEST_FRAMES,
  TEST_STACKS,
  testDevice,
} from '../../../test/support/builders/analyzed-device';
import {
  allocationFacts,
  describeEvent,
  formatAddress,
  frameText,
  fxNodeText,
  stackAsText,
  stackFrames,
  supportingFrames,
} from './allocation-facts';

const source = { frames: TEST_FRAMES, stacks: TEST_STACKS };
const view = { streams: [0, 0x55d1c0de] };

describe('stacks', () => {
  it('lists frames innermost first and tells framework frames apart', () => {
    const frames = stackFrames(source, 0);
    expect(frames.map((frame) => frame.name)).toEqual([
      'torch::unwind::unwind()',
      'c10::cuda::CUDACachingAllocator::malloc',
      'forward',
      'step',
      '<module>',
    ]);
    expect(frames.map((frame) => frame.isFramework)).toEqual([true, true, true, false, false]);
    expect(stackFrames(source, -1)).toEqual([]);
    expect(stackFrames(source, 99)).toEqual([]);
  });

  it('backs the top frame with the other user frames, or else its callers', () => {
    const frames = stackFrames(source, 0);
    expect(supportingFrames(frames, 3, 5).map((frame) => frame.name)).toEqual(['<module>']);
    const framework = stackFrames(source, 1);
    expect(supportingFrames(framework, 0, 5).map((frame) => frame.name)).toEqual(['forward']);
    expect(supportingFrames(frames, 3, 0)).toEqual([]);
  });

  it('writes frames for the clipboard', () => {
    const frames = stackFrames(source, 0);
    expect(frameText(frames[3]!)).toBe('/home/me/train.py:42 step');
    expect(frameText(frames[4]!)).toBe('/home/me/train.py:? <module>');
    expect(frameText(frames[0]!)).toBe('torch::unwind::unwind()');
    expect(stackAsText(frames.slice(2, 4))).toBe(
      '/site-packages/torch/nn/modules/linear.py:125 forward\n/home/me/train.py:42 step',
    );
  });
});

describe('allocationFacts', () => {
  const device = testDevice();

  it('describes an allocation made and freed in the trace', () => {
    const facts = allocationFacts(view, device, 1);
    expect(facts).toMatchObject({
      address: '0x7f0000200000',
      sizeBytes: 2048,
      blockSizeBytes: null,
      allocEvent: 0,
      freeEvent: 3,
      allocText: 'event 0 · 0 µs',
      freeText: 'event 3 · 5.00 ms',
      lifetimeUs: 5000,
      lifetimeEvents: 3,
      lifetimeText: '5.00 ms (3 events)',
      stream: 'stream 0x55d1c0de',
      origin: 'allocated in the trace',
      stackId: 0,
    });
  });

  it('gives lower bounds for allocations that outlive the trace on either side', () => {
    const before = allocationFacts(view, device, 0);
    expect(before).toMatchObject({
      allocEvent: null,
      freeEvent: null,
      blockSizeBytes: 1024,
      allocText: 'before the trace',
      freeText: 'alive at the end',
      stream: 'default stream',
      lifetimeText: '≥ 5.00 ms (4 events)',
    });
    expect(allocationFacts(view, device, 2).lifetimeText).toBe('≥ 4.00 ms (2 events)');
  });

  it('counts events when the file has no times', () => {
    const untimed = { ...testDevice(), timeUs: null };
    const facts = allocationFacts(view, untimed, 1);
    expect(facts.lifetimeText).toBe('3 events');
    expect(Number.isNaN(facts.lifetimeUs)).toBe(true);
    expect(describeEvent(untimed, 2)).toBe('event 2');
  });

  it('names moments', () => {
    expect(describeEvent(device, -1)).toBe('before the trace');
    expect(describeEvent(device, 2)).toBe('event 2 · 1.00 ms');
  });
});

describe('formatting', () => {
  it('pads addresses', () => {
    expect(formatAddress(0x7f89b4000000)).toBe('0x7f89b4000000');
    expect(formatAddress(4096)).toBe('0x000000001000');
  });
});

describe('FX keys of frames', () => {
  it('carries them on the frames that have them and words the node in one line', () => {
    const frames = {
      ...TEST_FRAMES,
      fx: {
        nodeOp: [null, null, 'call_function', null, null],
        nodeName: [null, null, 'mm_3', null, null],
        nodeTarget: [null, null, 'aten.mm.default', null, null],
        originalTrace: [null, null, 'File "/home/me/model.py", line 62, in forward', null, null],
      },
    };
    const stack = stackFrames({ frames, stacks: TEST_STACKS }, 0);
    expect(stack.map((frame) => frame.fx !== undefined)).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(fxNodeText(stack[2]!.fx)).toBe('call_function aten.mm.default (mm_3)');
    expect(stack[2]!.fx!.originalTrace).toContain('model.py", line 62');
    expect(fxNodeText(undefined)).toBeNull();
  });
});
