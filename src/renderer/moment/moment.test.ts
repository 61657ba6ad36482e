import { describe, expect, it } from 'vitest';
import { clampMoment, defaultMoment, momentRange } from '@shared/analyzed/moments';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import {
  activeAt,
  bigStep,
  describeMoment,
  momentStepOfCommand,
  reservedAt,
  stepMoment,
} from './moment';

import { commandOf } from '../state/keyboard-shortcuts';

const key = (name: string, shiftKey = false, ctrlKey = false) => ({
  key: name,
  shiftKey,
  ctrlKey,
  metaKey: false,
  altKey: false,
});

/** The step a key press makes, through the page's shortcut table. */
const stepOfKey = (stroke: ReturnType<typeof key>) => {
  const command = commandOf(stroke, 'page');
  return command === null ? null : momentStepOfCommand(command);
};

describe('moment', () => {
  it('starts on the first OOM, else on the active peak', () => {
    const device = testDevice();
    expect(defaultMoment(device)).toBe(1);
    expect(defaultMoment({ ...device, ooms: [] })).toBe(2);
  });

  it('ranges over -1 .. traceLength - 1', () => {
    const device = testDevice();
    expect(momentRange(device)).toEqual({ first: -1, last: 3 });
    expect(clampMoment(device, 99)).toBe(3);
    expect(clampMoment(device, -5)).toBe(-1);
    expect(momentRange({ traceLength: 0 })).toEqual({ first: -1, last: -1 });
  });

  it('steps by one event, by 1% of the trace, and to the ends', () => {
    const device = testDevice();
    expect(stepMoment(device, 1, 'next')).toBe(2);
    expect(stepMoment(device, 3, 'next')).toBe(3);
    expect(stepMoment(device, 0, 'previous')).toBe(-1);
    expect(stepMoment(device, -1, 'previous')).toBe(-1);
    expect(stepMoment(device, 2, 'first')).toBe(-1);
    expect(stepMoment(device, 0, 'last')).toBe(3);
    const long = { traceLength: 12_345 };
    expect(bigStep(long)).toBe(123);
    expect(stepMoment(long, 1000, 'forward')).toBe(1123);
    expect(stepMoment(long, 100, 'back')).toBe(-1);
    expect(bigStep(device)).toBe(1);
  });

  it('maps keys to steps: the arrows step, Shift by 1%, Home and End to the ends', () => {
    expect(stepOfKey(key('ArrowLeft'))).toBe('previous');
    expect(stepOfKey(key('ArrowRight'))).toBe('next');
    expect(stepOfKey(key('ArrowLeft', true))).toBe('back');
    expect(stepOfKey(key('ArrowRight', true))).toBe('forward');
    expect(stepOfKey(key('Home'))).toBe('first');
    expect(stepOfKey(key('End'))).toBe('last');
    expect(stepOfKey(key('a'))).toBeNull();
    // Ctrl+← pans the timeline instead.
    expect(stepOfKey(key('ArrowLeft', false, true))).toBeNull();
    expect(commandOf(key('ArrowLeft', false, true), 'chart')).toBe('pan-earlier');
  });

  it('reads the curves, with the baseline before the trace', () => {
    const device = testDevice();
    expect(activeAt(device, -1)).toBe(1000);
    expect(activeAt(device, 2)).toBe(3560);
    expect(reservedAt(device, -1)).toBe(4096);
    expect(reservedAt(device, 1)).toBe(8192);
    expect(describeMoment(device, 2)).toBe('event 2 · 1.00 ms · active 3.5 KiB · reserved 8.0 KiB');
    expect(describeMoment(device, -1)).toBe('before the trace · active 1000 B · reserved 4.0 KiB');
  });

  it('says nothing of reserved where the file records none (a CPU profiler trace)', () => {
    const device = testDevice();
    const cpu = { ...device, figures: { ...device.figures, reservedRecorded: false } };
    expect(describeMoment(cpu, 2)).toBe('event 2 · 1.00 ms · active 3.5 KiB');
  });
});
