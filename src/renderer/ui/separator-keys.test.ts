import { describe, expect, it } from 'vitest';
import { KEY_BIG_STEP_PX, KEY_STEP_PX, separatorKeyValue } from './separator-keys';

describe('separatorKeyValue', () => {
  it('moves by a step per arrow, further with Shift, within the bounds', () => {
    expect(separatorKeyValue('ArrowUp', false, 300, 100, 500)).toBe(300 - KEY_STEP_PX);
    expect(separatorKeyValue('ArrowLeft', false, 300, 100, 500)).toBe(300 - KEY_STEP_PX);
    expect(separatorKeyValue('ArrowDown', true, 300, 100, 500)).toBe(300 + KEY_BIG_STEP_PX);
    expect(separatorKeyValue('ArrowRight', false, 495, 100, 500)).toBe(500);
    expect(separatorKeyValue('ArrowUp', true, 120, 100, 500)).toBe(100);
  });

  it('goes to the ends with Home and End, and leaves other keys', () => {
    expect(separatorKeyValue('Home', false, 300, 100, 500)).toBe(100);
    expect(separatorKeyValue('End', false, 300, 100, 500)).toBe(500);
    expect(separatorKeyValue('a', false, 300, 100, 500)).toBeNull();
    expect(separatorKeyValue('Enter', false, 300, 100, 500)).toBeNull();
  });
});
