import { describe, expect, it } from 'vitest';
import { clampMoment, defaultMoment, momentRange } from '@shared/analyzed/moments';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import {
  activeAt,
  bigStep,
  describeMoment,
  momentStepAt,
  momentStepOfKey,
  reservedAt,
  stepMoment,
} from './moment';

const key = (name: string, shiftKey = false) => ({
  key: name,
  shiftKey,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
});

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

  it('maps keys to steps', () => {
    expect(momentStepOfKey(key('ArrowLeft'))).toBe('previous');
    expect(momentStepOfKey(key('ArrowRight'))).toBe('next');
    expect(momentStepOfKey(key('ArrowLeft', true))).toBe('back');
    expect(momentStepOfKey(key('ArrowRight', true))).toBe('forward');
    expect(momentStepOfKey(key('Home'))).toBe('first');
    expect(momentStepOfKey(key('End'))).toBe('last');
    expect(momentStepOfKey(key('a'))).toBeNull();
    expect(momentStepOfKey({ ...key('ArrowLeft'), ctrlKey: true })).toBeNull();
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
});

describe('momentStepAt', () => {
  it('leaves the arrows to the focused timeline, but not Home and End', () => {
    expect(momentStepAt(key('ArrowLeft'), false)).toBe('previous');
    expect(momentStepAt(key('ArrowLeft'), true)).toBeNull();
    expect(momentStepAt(key('ArrowRight', true), true)).toBeNull();
    expect(momentStepAt(key('Home'), true)).toBe('first');
    expect(momentStepAt(key('End'), true)).toBe('last');
    expect(momentStepAt(key('a'), false)).toBeNull();
  });
});
